// PostgreSQL monitors: log in and run a read-only query (SELECT 1 by default), optionally
// comparing its first value; slow answers are degraded. The password is stored sealed.
import { POSTGRES_FIELDS } from '../../../lib/monitor-kinds.ts';
import { postgresChecker, type PostgresConfig } from '../checkers/postgres.ts';
import { sqlKind } from './sql-kind.ts';

const SSLMODES = ['disable', 'require', 'verify-full'];

export const postgresKind = sqlKind<PostgresConfig>({
  fields: POSTGRES_FIELDS,
  schemes: ['postgres', 'postgresql'],
  example: 'postgres://monitor@db.example.com:5432/app',
  tlsProblem(parsed) {
    const sslmode = parsed.searchParams.get('sslmode');
    return sslmode != null && !SSLMODES.includes(sslmode) ? `sslmode must be one of ${SSLMODES.join(', ')}` : null;
  },
  check: postgresChecker,
});
