// Our words for the codes the public pages show (incident states), in the page's language. A state
// the catalogue does not know (a future one) reads as its code, capitalised, as before.
import type { PublicKey } from './i18n/messages/public/index.ts';
import type { PageText } from './page-locale.ts';

const INCIDENT_STATES = new Set(['open', 'investigating', 'identified', 'monitoring', 'resolved']);

export function incidentStatusWord(tx: PageText, status: string): string {
  if (INCIDENT_STATES.has(status)) return tx.t(`incident.status.${status}` as PublicKey);
  return status.charAt(0).toUpperCase() + status.slice(1);
}
