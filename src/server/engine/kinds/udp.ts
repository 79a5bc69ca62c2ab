// UDP monitors: a datagram to host:port; down without the expected answer (or, expecting
// silence, when something answers or the port is unreachable); slow answers are degraded.
import { hasControlCharacters } from '../../../lib/plain-text.ts';
import { DEFAULT_UDP_PAYLOAD_FORMAT, MAX_UDP_PAYLOAD_BYTES, UDP_FIELDS, UDP_PAYLOAD_FORMATS } from '../../../lib/monitor-kinds.ts';
import { udpBytes, udpChecker, type UdpConfig } from '../checkers/udp.ts';
import { validateHostPort } from './host-port.ts';
import { presentFields, type Kind } from './kind.ts';

const FIELDS = UDP_FIELDS;
const HEX = /^([0-9a-f]{2})*$/i;
const MAX_EXPECT_CHARS = 500;

/** The problem with a payload or expected answer in its format, or null. */
function bytesProblem(label: string, value: string, format: 'text' | 'hex', maxBytes: number): string | null {
  if (format === 'hex' && !HEX.test(value.replace(/\s+/g, ''))) return `${label} must be hex bytes like 0a ff 10`;
  if (format === 'text' && hasControlCharacters(value.replace(/[\r\n\t]/g, '')))
    return `${label} may not hold control characters (use hex)`;
  if (udpBytes(value, format).length > maxBytes) return `${label} must be at most ${maxBytes} bytes`;
  return null;
}

export const udpKind: Kind<UdpConfig> = {
  fields: FIELDS,
  validate(pick) {
    const { config: hp, problems, target } = validateHostPort(pick, undefined);
    const format = pick('udp_payload_format') ?? DEFAULT_UDP_PAYLOAD_FORMAT;
    const config: UdpConfig = {
      ...hp,
      udp_payload: pick('udp_payload') ?? null,
      udp_payload_format: format,
      udp_expect: pick('udp_expect') || null,
      udp_expect_silence: pick('udp_expect_silence') ?? false,
      degraded_threshold_ms: pick('degraded_threshold_ms') ?? null,
    };
    if (!(UDP_PAYLOAD_FORMATS as readonly string[]).includes(format)) problems.udp_payload_format = 'Payload format must be text or hex';
    else {
      const payload = config.udp_payload && bytesProblem('Payload', config.udp_payload, format, MAX_UDP_PAYLOAD_BYTES);
      if (payload) problems.udp_payload = payload;
      const expect = config.udp_expect && bytesProblem('Expected answer', config.udp_expect, format, MAX_EXPECT_CHARS);
      if (expect) problems.udp_expect = expect;
    }
    if (config.udp_expect && config.udp_expect_silence)
      problems.udp_expect = 'Expect either an answer containing this or silence, not both';
    return { config, problems, target };
  },
  check: udpChecker,
  present: (config) => presentFields(FIELDS, config),
  publicTarget: (config) => config.host || null,
};
