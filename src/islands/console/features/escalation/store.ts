// The escalation policy (/settings/escalation): the company's ordered steps, with the channels
// and people they may name. Company admins read and save it; super admins in the tenant chosen
// in the selector. Viewers never get here (settings).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { dataOrLog, loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type Policy = S['EscalationPolicy'];
export type Step = S['EscalationStep'];
export interface ChannelOption {
  id: string;
  name: string;
  enabled: boolean;
}

export const $policy = atom<Load<Policy>>({ status: 'loading' });
export const $policyChannels = atom<ChannelOption[]>([]);
/** The company's on-call schedules a step may page (whoever is on call at the step's time) */
export const $policySchedules = atom<Array<{ id: string; name: string }>>([]);

export async function loadPolicy(tenant: string | null): Promise<void> {
  const query = { tenant: tenant ?? undefined };
  await Promise.all([
    loadInto($policy, () => api.GET('/api/v1/escalation-policy', { params: { query } }), serverOr(t('escalation.loadFailed'))),
    dataOrLog(() => api.GET('/api/v1/alert-channels', { params: { query } }), 'Failed to load alert channels for the policy').then((d) => {
      if (d) $policyChannels.set(d.map((c) => ({ id: c.id, name: c.name, enabled: c.enabled })));
    }),
    // A company's own schedules (a super admin's view of another tenant lists none to choose).
    (tenant
      ? Promise.resolve(null)
      : dataOrLog(() => api.GET('/api/v1/schedules'), 'Failed to load on-call schedules for the policy')
    ).then((d) => $policySchedules.set((d ?? []).map((x) => ({ id: x.id, name: x.name })))),
  ]);
}

/** A step alerts somebody and comes no sooner than the one before it. */
export function validateSteps(steps: Step[]): Record<number, string> {
  const errors: Record<number, string> = {};
  steps.forEach((s, i) => {
    if (!Number.isInteger(s.after_minutes) || s.after_minutes < 0 || s.after_minutes > 10080) errors[i] = t('escalation.error.minutes');
    else if (i > 0 && s.after_minutes < steps[i - 1].after_minutes) errors[i] = t('escalation.error.order', { n: i + 1, before: i });
    else if (s.channel_ids.length + s.user_ids.length + (s.schedule_ids?.length ?? 0) === 0) errors[i] = t('escalation.error.nobody');
  });
  return errors;
}

export interface PolicyOptions {
  repeat: number;
  notify_team_at_last_step: boolean;
}

export async function savePolicy(
  steps: Step[],
  options: PolicyOptions,
  tenant: string | null,
): Promise<{ ok: true } | { ok: false; text: string }> {
  const body: S['EscalationPolicyInput'] = { steps, ...options };
  if (tenant) body.company_id = tenant;
  const r = await api.PUT('/api/v1/escalation-policy', { body });
  if (r.data) {
    $policy.set({ status: 'ready', data: r.data });
    return { ok: true };
  }
  return { ok: false, text: errorText(r.error, t('escalation.saveFailed')) };
}
