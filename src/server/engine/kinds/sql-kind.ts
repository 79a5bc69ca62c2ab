// What the SQL kinds (postgres, mysql) share: a connection URL of their schemes whose password is
// sealed, a read-only query with an optional expected value, the view, the public target (the
// URL's host) and the certificate warning of a TLS session. Each kind names only its schemes, its
// example URL, its TLS parameter's rule and its checker.
import { DEFAULT_DB_QUERY } from '../../../lib/monitor-kinds.ts';
import type { Checker } from '../checkers/types.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import { dbExpectedProblem, dbQueryProblem } from './db-query.ts';
import { validateDbUrl } from './db-url.ts';
import type { Kind } from './kind.ts';
import { presentSecret } from './secret-box.ts';

export interface SqlConfig {
  url?: string;
  password?: string | null;
  db_query?: string;
  db_expected?: string | null;
  degraded_threshold_ms?: number | null;
}

export function sqlKind<C extends SqlConfig>(spec: {
  fields: readonly (keyof C & string)[];
  schemes: string[];
  example: string;
  /** The problem with the URL's TLS parameter (sslmode, ssl-mode), null when fine */
  tlsProblem(parsed: URL): string | null;
  check: Checker<C>;
}): Kind<C> {
  return {
    fields: spec.fields,
    secretFields: ['password'] as (keyof C & string)[],
    validate(pick) {
      const { config, problems, target, parsed } = validateDbUrl(pick, spec.schemes, spec.example);
      const tls = parsed ? spec.tlsProblem(parsed) : null;
      if (tls) problems.url = tls;
      const query = String(pick('db_query') ?? DEFAULT_DB_QUERY).trim();
      const queryProblem = dbQueryProblem(query);
      if (queryProblem) problems.db_query = queryProblem;
      const expected = pick('db_expected') ?? null;
      const expectedText = dbExpectedProblem(expected);
      if (expectedText) problems.db_expected = expectedText;
      return {
        config: { ...config, db_query: query, db_expected: expected, degraded_threshold_ms: pick('degraded_threshold_ms') ?? null } as C,
        problems,
        target,
      };
    },
    check: spec.check,
    async afterResult(r) {
      // A certificate seen by a TLS session warns before it expires, like an https check's.
      if (r.outcome.status !== 'down') await certificateExpiring(r, undefined);
    },
    present: (config) => ({
      url: config.url ?? null,
      password: presentSecret(config.password),
      db_query: config.db_query ?? null,
      db_expected: config.db_expected ?? null,
      degraded_threshold_ms: config.degraded_threshold_ms ?? null,
    }),
    publicTarget(config) {
      try {
        return new URL(config.url ?? '').hostname || null;
      } catch {
        return null;
      }
    },
  };
}
