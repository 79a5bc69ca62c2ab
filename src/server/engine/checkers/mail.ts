// Mail server checks (smtp, imap, pop3): connect to the checked address, TLS from the first byte
// (implicit) or after the greeting (STARTTLS), the greeting judged, an optional login, goodbye.
// The certificate is judged like an ssl monitor's (an invalid one is down) and its facts kept.
// Spoken by hand over the bounded line reader: one code path for the three protocols, every
// hostile answer (garbage, a huge or endless line, silence) ending as our sentence.
import type { Socket } from 'node:net';
import type tls from 'node:tls';
import { DEFAULT_MAIL_TLS, MAIL_PORTS, type MailTls } from '../../../lib/monitor-kinds.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { answered } from './db-common.ts';
import { LineReader, ProtocolError } from './line-reader.ts';
import { MAIL_PROTOCOLS, MailRefusal, type MailSession } from './mail-protocols.ts';
import { connectTcp, startTls } from './socket-session.ts';
import { failed, round, type Checker, type CheckOutcome, type Timings } from './types.ts';

/** What an smtp, imap or pop3 monitor stores (engine/kinds/mail.ts validates it); `password` sealed at rest. */
export interface MailConfig {
  host?: string;
  port?: number;
  mail_tls?: MailTls;
  /** Text the greeting must contain (the server's name or software), compared without case */
  mail_banner?: string | null;
  username?: string | null;
  password?: string | null;
  degraded_threshold_ms?: number | null;
}

export type MailKind = keyof typeof MAIL_PROTOCOLS;

export function mailChecker(kind: MailKind): Checker<MailConfig> {
  const protocol = MAIL_PROTOCOLS[kind];
  return async (target, env, signal) => {
    const started = performance.now();
    const cfg = target.config;
    const mode = cfg.mail_tls ?? DEFAULT_MAIL_TLS;
    const host = (cfg.host ?? '').trim();
    const timings: Timings = { total: 0 };
    const since = () => round(performance.now() - started);
    let socket: Socket | null = null;
    let peer: tls.PeerCertificate | undefined;
    let certProblem: string | null = null;
    try {
      const { address } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
      timings.dns = since();
      socket = await connectTcp(address, cfg.port ?? MAIL_PORTS[kind][mode], signal);
      timings.connect = round(since() - timings.dns);
      const s0 = socket;
      signal.addEventListener('abort', () => s0.destroy(), { once: true });
      const secure = async () => {
        const at = since();
        const r = await startTls(socket!, host, env, signal);
        signal.addEventListener('abort', () => r.socket.destroy(), { once: true });
        timings.tls = round(since() - at);
        socket = r.socket;
        peer = r.peer;
        certProblem = r.problem;
      };
      if (mode === 'implicit') await secure();
      let session = sessionOn(socket);
      const banner = await protocol.greet(session);
      timings.ttfb = round(since() - timings.dns - timings.connect - (timings.tls ?? 0));
      if (cfg.mail_banner && !banner.toLowerCase().includes(cfg.mail_banner.toLowerCase()))
        throw new MailRefusal(`The greeting does not contain "${cfg.mail_banner}"`);
      await protocol.hello?.(session);
      if (mode === 'starttls') {
        await protocol.startTls(session);
        // Bytes after the answer to STARTTLS, before the handshake, were injected by someone on
        // the path (CVE-2011-0411 and kin): refuse rather than read them as the server's.
        if (session.reader.pending > 0) throw new MailRefusal('The server sent data before TLS began (refused: it could be injected)');
        session.reader.detach();
        await secure();
        session = sessionOn(socket);
        await protocol.hello?.(session);
      }
      if (certProblem) return done(timings, certProblem, null, peer, since);
      if (cfg.username) await protocol.login(session, cfg.username, cfg.password ?? '');
      protocol.quit(session);
      return done(timings, null, cfg.degraded_threshold_ms, peer, since);
    } catch (e) {
      const t = { ...timings, total: since() };
      if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, t);
      if (e instanceof TargetRefused || e instanceof ProtocolError || e instanceof MailRefusal) return withCert(failed(e.message, t), peer);
      return withCert(failed(networkErrorText(e), t), peer);
    } finally {
      (socket as Socket | null)?.end();
      setTimeout(() => (socket as Socket | null)?.destroy(), 1000).unref();
    }
  };
}

function sessionOn(socket: Socket): MailSession {
  return { reader: new LineReader(socket), write: (line) => socket.write(`${line}\r\n`) };
}

/** The outcome of a session that got through: down on an invalid certificate, else by time. */
function done(
  timings: Timings,
  certProblem: string | null,
  degradedMs: number | null | undefined,
  peer: tls.PeerCertificate | undefined,
  since: () => number,
): CheckOutcome {
  const outcome = answered({ ...timings, total: since() }, certProblem, degradedMs, peer);
  if (!peer) return outcome;
  return { ...outcome, detail: certProblem ? { certValid: false, certProblem } : { certValid: true } };
}

/** A failure after the handshake still reports the certificate it saw. */
function withCert(outcome: CheckOutcome, peer: tls.PeerCertificate | undefined): CheckOutcome {
  return peer ? { ...answered(outcome.timings ?? { total: 0 }, outcome.error, null, peer), status: 'down', responseTimeMs: null } : outcome;
}
