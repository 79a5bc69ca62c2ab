// The console form's fields of the network kinds (ping, udp, grpc, websocket) and of the http
// kind's header and regex assertions that have no hand-made input; host, port, url, headers and degraded_threshold_ms keep theirs. Defaults are
// the server's (lib/monitor-kinds.ts).
import {
  DEFAULT_PING_MAX_LOSS_PERCENT,
  DEFAULT_PING_PACKETS,
  DEFAULT_UDP_PAYLOAD_FORMAT,
  MAX_PING_PACKETS,
  MAX_UDP_PAYLOAD_BYTES,
  UDP_PAYLOAD_FORMATS,
} from '../monitor-kinds.ts';
import type { KindFieldSpecs } from './field.ts';

export const NETWORK_FIELDS = {
  packet_count: {
    label: 'Packets',
    input: 'number',
    default: String(DEFAULT_PING_PACKETS),
    hint: `Echo requests per check, 1 to ${MAX_PING_PACKETS}, 0.2 s apart`,
  },
  max_packet_loss_percent: {
    label: 'Max packet loss (%)',
    input: 'number',
    default: String(DEFAULT_PING_MAX_LOSS_PERCENT),
    hint: 'Degraded above this loss; every packet lost is down',
  },
  udp_payload: {
    label: 'Payload',
    input: 'text',
    placeholder: 'ping',
    hint: `The datagram sent (at most ${MAX_UDP_PAYLOAD_BYTES} bytes); empty sends an empty one`,
  },
  udp_payload_format: {
    label: 'Payload format',
    input: 'select',
    options: UDP_PAYLOAD_FORMATS,
    default: DEFAULT_UDP_PAYLOAD_FORMAT,
    hint: 'hex: bytes like 0a ff 10 (payload and expected answer)',
  },
  udp_expect: { label: 'Expected answer', input: 'text', placeholder: 'pong', hint: 'The answer must contain this; blank: any answer' },
  udp_expect_silence: { label: 'Expect silence (up when nothing answers)', input: 'checkbox', default: false },
  grpc_service: {
    label: 'Service',
    input: 'text',
    placeholder: 'my.package.Orders',
    hint: 'Asked through grpc.health.v1.Health/Check; blank: the whole server',
  },
  grpc_tls: { label: 'TLS', input: 'checkbox', default: false },
  grpc_metadata: { label: 'Metadata', input: 'pairs', placeholder: 'authorization: Bearer …', hint: 'One "name: value" a line' },
  ws_subprotocol: {
    label: 'Subprotocol',
    input: 'text',
    placeholder: 'graphql-transport-ws',
    hint: 'Asked for in the upgrade; the server must accept it',
  },
  ws_message: {
    label: 'Message to send',
    input: 'text',
    placeholder: '{"type":"ping"}',
    hint: 'Sent once the connection is open; blank: none',
  },
  keyword_regex: { label: 'Keyword is a regular expression (RE2)', input: 'checkbox', default: false },
  header_assertions: {
    label: 'Response headers must match',
    input: 'pairs',
    placeholder: 'Content-Type: application/json',
    hint: 'One "Name: text" a line; /regex/ to match; "Name:" alone: present',
  },
  ws_expect: { label: 'Expected answer', input: 'text', placeholder: 'pong', hint: 'A message must contain this; blank: open is enough' },
} satisfies KindFieldSpecs;
