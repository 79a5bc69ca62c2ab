// The signed acknowledge link added to an alert at send time: for an incident that opened or
// escalated, on the company's own host (the page is /ack/{token}, src/pages/ack/[token].astro).
// The token is the same on every retry of a delivery, and expires 24 h after it was written.
import { ACK_LINK_TTL_MS, signAckToken } from '../../domain/incidents/ack-token.ts';
import type { AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import type { AlertPayload } from './payload.ts';

export function acknowledgeUrlOf(secret: string, d: AlertDeliveryRow, p: AlertPayload, companyOrigin: string | null): string | null {
  if (!companyOrigin || !p.incident) return null;
  if (p.event !== 'incident.opened' && p.event !== 'incident.escalated') return null;
  const token = signAckToken(secret, { incidentId: p.incident.id, deliveryId: d.id, expiresAt: d.created_at + ACK_LINK_TTL_MS });
  return `${companyOrigin}/ack/${token}`;
}
