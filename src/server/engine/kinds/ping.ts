// Ping monitors: ICMP echo requests to a host; down when every packet is lost, degraded when more
// than `max_packet_loss_percent` are lost or the average round trip passes `degraded_threshold_ms`.
import { DEFAULT_PING_MAX_LOSS_PERCENT, DEFAULT_PING_PACKETS, MAX_PING_PACKETS, PING_FIELDS } from '../../../lib/monitor-kinds.ts';
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import { pingChecker, type PingConfig } from '../checkers/ping.ts';
import { HOST_TEXT } from './host-port.ts';
import { presentFields, type Kind } from './kind.ts';

const FIELDS = PING_FIELDS;

export const pingKind: Kind<PingConfig> = {
  fields: FIELDS,
  validate(pick) {
    const problems: Record<string, string> = {};
    const host = String(pick('host') ?? '').trim();
    const normalized = normalizeTargetHost(host);
    if (!host) problems.host = 'Host is required';
    else if (!normalized) problems.host = HOST_TEXT;
    const packetCount = pick('packet_count') ?? DEFAULT_PING_PACKETS;
    if (!Number.isInteger(packetCount) || packetCount < 1 || packetCount > MAX_PING_PACKETS)
      problems.packet_count = `Packets must be between 1 and ${MAX_PING_PACKETS}`;
    const maxLoss = pick('max_packet_loss_percent') ?? DEFAULT_PING_MAX_LOSS_PERCENT;
    if (!Number.isInteger(maxLoss) || maxLoss < 0 || maxLoss > 99)
      problems.max_packet_loss_percent = 'Packet loss must be between 0 and 99 % (every packet lost is down)';
    return {
      config: {
        host: normalized ?? host,
        packet_count: packetCount,
        max_packet_loss_percent: maxLoss,
        degraded_threshold_ms: pick('degraded_threshold_ms') ?? null,
      },
      problems,
      target: normalized ? { host: normalized, field: 'host' } : null,
    };
  },
  check: pingChecker,
  present: (config) => presentFields(FIELDS, config),
  publicTarget: (config) => config.host || null,
};
