// MySQL and MariaDB monitors: log in and run a read-only query (SELECT 1 by default), optionally
// comparing its first value; slow answers are degraded. The password is stored sealed.
import { MYSQL_FIELDS } from '../../../lib/monitor-kinds.ts';
import { mysqlChecker, type MysqlConfig } from '../checkers/mysql.ts';
import { sqlKind } from './sql-kind.ts';

const SSL_MODES = ['disabled', 'required', 'verify_identity'];

export const mysqlKind = sqlKind<MysqlConfig>({
  fields: MYSQL_FIELDS,
  schemes: ['mysql', 'mariadb'],
  example: 'mysql://monitor@db.example.com:3306/app',
  tlsProblem(parsed) {
    const mode = parsed.searchParams.get('ssl-mode');
    return mode != null && !SSL_MODES.includes(mode.toLowerCase().replace('-', '_'))
      ? 'ssl-mode must be one of DISABLED, REQUIRED, VERIFY_IDENTITY'
      : null;
  },
  check: mysqlChecker,
});
