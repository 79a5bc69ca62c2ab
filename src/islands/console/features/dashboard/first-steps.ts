// The first-steps card of a new company's dashboard (issue 13 item 8): the server says which
// steps the company's data shows done; this browser remembers, per user, that the status page
// was opened from the card and that the card was dismissed (a person's preference, not company
// data: another admin of the company still gets the card).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { t } from '../../i18n.ts';

export type FirstSteps = components['schemas']['FirstSteps'];
export type InvitePolicy = components['schemas']['InvitePolicy'];
export type StepKey = keyof FirstSteps['steps'];

export interface Remembered {
  visitedStatusPage?: boolean;
  dismissed?: boolean;
}

export const $firstSteps = atom<Load<FirstSteps>>({ status: 'loading' });
export const $remembered = atom<Remembered>({});
/** Whether this admin may invite, so the team step offers only what they can do (issue 25 item 5) */
export const $invitePolicy = atom<Load<InvitePolicy>>({ status: 'loading' });

const keyOf = (userId: string) => `sw-first-steps:${userId}`;
let userOfCard = '';

export function loadFirstSteps(userId: string): void {
  userOfCard = userId;
  try {
    $remembered.set(JSON.parse(localStorage.getItem(keyOf(userId)) ?? '{}') as Remembered);
  } catch {
    $remembered.set({});
  }
  void loadInto($firstSteps, () => api.GET('/api/v1/company/first-steps'), serverOr(t('dashboard.first-steps.failedToLoadData')));
  void loadInto($invitePolicy, () => api.GET('/api/v1/company/invite-policy'), serverOr(t('dashboard.first-steps.failedToLoadData')));
}

export function remember(change: Remembered): void {
  const next = { ...$remembered.get(), ...change };
  $remembered.set(next);
  try {
    localStorage.setItem(keyOf(userOfCard), JSON.stringify(next));
  } catch {
    /* storage unavailable: remembered until the page reloads */
  }
}

/** Each step done: from the company's data, the status page also by a visit from the card. */
export function doneSteps(steps: FirstSteps['steps'], r: Remembered): Record<StepKey, boolean> {
  return { ...steps, status_page: steps.status_page || r.visitedStatusPage === true };
}
