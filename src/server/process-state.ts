// The process state of one services object, made once by createServices (services.ts): every
// area's cache, throttle and transport side by side. domain/context.ts (ProcessState) says what
// it is for and why it lives in memory, per services object; each part's type is beside its code.
import type { ProcessState, Services } from './domain/context.ts';
import { StatusPageCache } from './domain/status-page/cache.ts';
import { newPageAccessState } from './domain/status-page/access.ts';
import { CustomDomainRoutes } from './domain/custom-domains/routes.ts';
import { newLimiters } from './domain/auth/throttle.ts';
import { newSubscribeThrottles } from './domain/subscribers/service.ts';
import { newSmtpTestWindow } from './domain/platform/platform.ts';
import { newMailerState } from './notify/mailer.ts';
import { newProbeHelloWindow } from './domain/probes/hello.ts';
import { DeliveryMemos } from './domain/probes/delivery-memo.ts';

/** The services object, given its process state (createServices; tests that build services by hand). */
export function withProcessState(base: Omit<Services, 'state'>): Services {
  // Some parts keep the services object they serve (the status-page cache, the domain routes),
  // so it exists before they do.
  const services = base as Services;
  services.state = createProcessState(services);
  return services;
}

function createProcessState(services: Services): ProcessState {
  return {
    statusPageCache: new StatusPageCache(services),
    pageAccess: newPageAccessState(),
    customDomainRoutes: new CustomDomainRoutes(services),
    throttles: newLimiters(services.db),
    subscribeThrottles: newSubscribeThrottles(services.db),
    smtpTests: newSmtpTestWindow(),
    monitorTests: null,
    mailer: newMailerState(),
    probeHellos: newProbeHelloWindow(),
    probeLongPolls: new Set(),
    probeDeliveryMemos: new DeliveryMemos(),
  };
}
