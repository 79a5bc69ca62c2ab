// PostgreSQL monitors: log in and run a read-only query (SELECT 1 by default), optionally
// comparing its first value; slow answers are degraded. The password is stored sealed.
import { DEFAULT_DB_QUERY, POSTGRES_FIELDS } from '../../../lib/monitor-kinds.ts';
import { postgresChecker, type PostgresConfig } from '../checkers/postgres.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import { dbExpectedProblem, dbQueryProblem } from './db-query.ts';
import { validateDbUrl } from './db-url.ts';
import type { Kind } from './kind.ts';
import { presentSecret } from './secret-box.ts';

const SSLMODES = ['disable', 'require', 'verify-full'];

export const postgresKind: Kind<PostgresConfig> = {
  fields: POSTGRES_FIELDS,
  secretFields: ['password'],
  validate(pick) {
    const { config, problems, target, parsed } = validateDbUrl(
      pick,
      ['postgres', 'postgresql'],
      'postgres://monitor@db.example.com:5432/app',
    );
    const sslmode = parsed?.searchParams.get('sslmode');
    if (sslmode != null && !SSLMODES.includes(sslmode)) problems.url = `sslmode must be one of ${SSLMODES.join(', ')}`;
    const query = String(pick('db_query') ?? DEFAULT_DB_QUERY).trim();
    const queryProblem = dbQueryProblem(query);
    if (queryProblem) problems.db_query = queryProblem;
    const expected = pick('db_expected') ?? null;
    const expectedText = dbExpectedProblem(expected);
    if (expectedText) problems.db_expected = expectedText;
    return {
      config: { ...config, db_query: query, db_expected: expected, degraded_threshold_ms: pick('degraded_threshold_ms') ?? null },
      problems,
      target,
    };
  },
  check: postgresChecker,
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
