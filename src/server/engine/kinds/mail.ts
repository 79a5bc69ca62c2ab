// What the three mail kinds (smtp, imap, pop3) share: host and port as for tcp (the port's default
// follows the TLS mode), the TLS mode, an optional login whose password is stored sealed, the
// certificate's warnings, and the TLS endpoint of implicit TLS for the security suite.
import { DEFAULT_MAIL_TLS, MAIL_FIELDS, MAIL_PORTS, MAIL_TLS_MODES, type MailTls } from '../../../lib/monitor-kinds.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { mailChecker, type MailConfig, type MailKind } from '../checkers/mail.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import { validateHostPort } from './host-port.ts';
import type { Kind } from './kind.ts';
import { presentSecret } from './secret-box.ts';

export function mailKind(kind: MailKind): Kind<MailConfig> {
  const ports = MAIL_PORTS[kind];
  return {
    fields: MAIL_FIELDS,
    secretFields: ['password'],
    validate(pick) {
      const mode = (pick('mail_tls') ?? DEFAULT_MAIL_TLS) as MailTls;
      const modeKnown = (MAIL_TLS_MODES as readonly string[]).includes(mode);
      const { config, problems, target } = validateHostPort(pick, ports[modeKnown ? mode : DEFAULT_MAIL_TLS]);
      if (!modeKnown) problems.mail_tls = `Encryption must be one of ${MAIL_TLS_MODES.join(', ')}`;
      const banner = pick('mail_banner')?.trim() || null;
      const bannerProblem = plainTextProblem('Expected greeting', banner);
      if (bannerProblem) problems.mail_banner = bannerProblem;
      if (banner && banner.length > 200) problems.mail_banner = 'Expected greeting must be at most 200 characters';
      const username = pick('username')?.trim() || null;
      const password = pick('password') ?? null;
      const userProblem = plainTextProblem('User name', username);
      if (userProblem) problems.username = userProblem;
      if (username && username.length > 320) problems.username = 'User name must be at most 320 characters';
      if (password && !username) problems.username = 'User name is required with a password';
      return {
        config: {
          ...config,
          mail_tls: mode,
          mail_banner: banner,
          username,
          password,
          degraded_threshold_ms: pick('degraded_threshold_ms') ?? null,
        },
        problems,
        target,
      };
    },
    check: mailChecker(kind),
    async afterResult(r) {
      // A certificate seen by a TLS session warns before it expires, as an ssl monitor's does.
      if (r.outcome.detail?.certValid === true) await certificateExpiring(r, undefined);
    },
    present: (config) => ({
      host: config.host ?? null,
      port: config.port ?? null,
      mail_tls: config.mail_tls ?? null,
      mail_banner: config.mail_banner ?? null,
      username: config.username ?? null,
      password: presentSecret(config.password),
      degraded_threshold_ms: config.degraded_threshold_ms ?? null,
    }),
    publicTarget: (config) => config.host || null,
    // Implicit TLS is graded by the security suite's TLS analysis (a plain handshake); STARTTLS
    // would need the protocol first, so its certificate is judged by each check instead.
    tlsEndpoint(config) {
      const host = (config.host ?? '').trim().toLowerCase();
      return host && config.mail_tls === 'implicit' ? { host, port: config.port ?? ports.implicit } : null;
    },
  };
}
