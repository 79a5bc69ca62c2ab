// What Astro pages may ask of the server, passed in `locals` by the Fastify host. Pages never
// import src/server themselves (the build would create a second database and cache).
import type { HistoryPageLookup, HistoryView, UptimeView } from './status-history.ts';
import type { IncidentView } from './status.ts';
import type { UiSettings } from './ui-settings.ts';

export interface PageServices {
  productName: string;
  productDomain: string;
  /** The main site's public origin, from configuration (the "Powered by" link of status pages). */
  mainSiteUrl: string;
  /** ?lang=en-XA renders the public pages in the pseudo-locale (I18N_PSEUDO_LOCALE=1, tests only) */
  pseudoLocale?: boolean;
  /** true when no user exists yet: /setup is offered */
  needsSetup(): Promise<boolean>;
  /**
   * Creates the first super admin and signs them in on this host (the session cookies to set,
   * as sign-in sets them); refuses once any user exists, answering the error text.
   */
  createFirstAdmin(
    input: { email: string; password: string; fullName: string },
    request: { host: string; userAgent: string },
  ): Promise<{ error: string } | { cookies: PageCookie[] }>;
  /**
   * The signed-in user of a page request, from its cookies and host (same rules as the API:
   * the session must belong to this host). Null when nobody is signed in. (Identity area.)
   */
  currentUser(cookieHeader: string | null, host: string): Promise<PageUser | null>;
  /** A user's console look for the page's first paint (lib/ui-settings.ts); null: nobody signed in, the defaults. */
  uiSettings(userId: string | null): Promise<UiSettings>;
  /** What the Host header means: the main site, a company's subdomain, or neither. (Identity area.) */
  resolveHost(host: string): Promise<HostKind>;
  /** A company's public status page snapshot (cached; public monitors only). (Public pages area.) */
  getStatusPage(subdomain: string): Promise<StatusPageLookup>;
  /** One month (`YYYY-MM`, else the current one) of the public history of the host's company. (Public pages area.) */
  getHistory(host: string, month: string | null): Promise<HistoryPageLookup<HistoryView>>;
  /** One public incident of the host's company with its whole timeline and postmortem. */
  getIncident(host: string, id: string): Promise<HistoryPageLookup<IncidentView>>;
  /** Daily uptime calendars of the host's public components for 3, 6 or 12 months (`?months=`). */
  getUptime(host: string, months: string | null): Promise<HistoryPageLookup<UptimeView>>;
  /** What a subscriber's confirmation or unsubscribe link shows when opened (reads only). */
  subscriberLink(kind: 'confirm' | 'unsubscribe', token: string, host: string): Promise<SubscriberLinkView>;
  /** The status page's subscribe form (no JavaScript needed): the same rules as the public API. */
  subscribe(
    host: string,
    clientIp: string,
    input: { email: string; componentIds: string[] | null; language?: string; acceptLanguage?: string | null },
  ): Promise<SubscribeFormResult>;
  /** The incident behind a signed acknowledge link, on its company's host; never acknowledges. (Alerts area.) */
  viewAckLink(token: string, host: string): Promise<AckLinkView>;
  /** Acknowledges the incident behind a valid, unexpired link; answers what the page shows then. (Alerts area.) */
  acknowledgeByLink(token: string, host: string): Promise<AckLinkView>;
  /** Whether the host's company offers SMS subscribing (the operator's Twilio account and the plan). */
  smsSubscribeOffered(host: string): Promise<boolean>;
  /** The Slack, Teams, Discord and SMS forms of /subscribe (no JavaScript needed): the same rules as the public API. */
  subscribeOther(host: string, clientIp: string, input: OtherSubscribeInput): Promise<SubscribeFormResult>;
  /** The SMS code typed on /subscribe/sms. */
  confirmSmsCode(host: string, clientIp: string, input: { phone: string; code: string }): Promise<SubscribeFormResult>;
}

export interface OtherSubscribeInput {
  kind: 'slack' | 'teams' | 'discord' | 'sms';
  webhookUrl: string;
  phone: string;
  componentIds: string[] | null;
}

export interface LinkCompany {
  name: string;
  subdomain: string;
  primaryColor: string | null;
}

export type SubscriberLinkView =
  /** unknown, forged, already used, or opened on another company's host */
  | { kind: 'invalid' }
  | { kind: 'expired' | 'confirmed' | 'unsubscribed'; company: LinkCompany }
  /** ready for the button; components: how many were chosen (null: all) */
  | { kind: 'confirm' | 'unsubscribe'; company: LinkCompany; address: string; components: number | null };

export type SubscribeFormResult = { ok: true } | { ok: false; error: string; field?: string; retryAfterSeconds?: number; status: number };

/** What the acknowledge page shows: only this incident's title, impact and state, and the company's name. */
export type AckLinkView =
  | { state: 'invalid' }
  | {
      state: 'expired' | 'ready' | 'acknowledged' | 'resolved';
      company: string;
      incident: { title: string; severity: string; monitorName: string | null; startedAt: string; acknowledgedAt: string | null };
    };

/** A cookie for a page to set (the session cookies after /setup). */
export interface PageCookie {
  name: string;
  value: string;
  options: { path: string; httpOnly: true; secure: true; sameSite: 'lax'; maxAge?: number };
}

export type StatusPageLookup =
  | { kind: 'ok'; view: import('./status.ts').StatusPageView; stale: boolean }
  | { kind: 'not_found' }
  /** the database cannot be read and no snapshot exists yet */
  | { kind: 'unavailable' };

export interface PageUser {
  id: string;
  email: string;
  fullName: string;
  userType: 1 | 2 | 3;
  role: 'super_admin' | 'customer_admin' | 'customer_viewer';
  companyId: string | null;
  subdomain: string | null;
}

export interface PageCompany {
  id: string;
  name: string;
  subdomain: string;
  primaryColor: string;
  secondaryColor: string;
  logoBase64: string | null;
  horizontalLogoBase64: string | null;
  /** the company signs in with single sign-on (configured, and its plan has it): the login page offers it */
  sso?: boolean;
}

export type HostKind =
  | { kind: 'root' }
  | { kind: 'tenant'; subdomain: string; company: PageCompany }
  /** a tenant-shaped host whose company is unknown or inactive */
  | { kind: 'unknown_tenant'; subdomain: string }
  /** a host outside the product domain */
  | { kind: 'invalid' };
