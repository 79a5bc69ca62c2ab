// Operator commands: `npm run admin -- create-superadmin --email you@example.com`,
// `npm run admin -- reset-password --email you@example.com` (passwords are read from stdin, never
// from the command line where `ps` would show them), `npm run admin -- list-users`, and
// `npm run admin -- backup FILE` / `restore FILE` for the SQLite database (db/sqlite-backup.ts).
// Uses the same configuration as the server (DATA_DIR, DATABASE_URL, ...).
import { createInterface } from 'node:readline';
import { configOrExit } from '../process-lifecycle.ts';
import { createServices } from '../services.ts';
import { createSuperAdmin, resetPasswordByOperator } from '../domain/setup/first-admin.ts';
import { DomainError } from '../domain/errors.ts';
import { usersRepo } from '../db/repositories/users-repo.ts';
import { USER_TYPE_LABELS } from '../../lib/permissions.ts';
import type { Config } from '../config.ts';
import { BackupError, backupSqlite, restoreSqlite } from '../db/sqlite-backup.ts';

const USAGE = `Usage:
  npm run admin -- create-superadmin --email you@example.com [--name "Full Name"]
      (reads the password from stdin: type it, or pipe it in)
  npm run admin -- reset-password --email you@example.com
      (reads the new password from stdin; ends that user's sessions)
  npm run admin -- list-users
  npm run admin -- backup FILE
      (a consistent copy of the SQLite database, also while the server runs)
  npm run admin -- restore FILE
      (stop the server first; checks FILE, keeps the current database as .bak)`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

async function readPassword(): Promise<string> {
  const tty = process.stdin.isTTY;
  if (tty) process.stderr.write('Password (8+ characters): ');
  const rl = createInterface({ input: process.stdin, terminal: false });
  if (tty) process.stdin.setRawMode?.(false);
  for await (const line of rl) {
    rl.close();
    return line.replace(/\r$/, '');
  }
  return '';
}

const ON_POSTGRES = `This server uses PostgreSQL (DATABASE_URL): back up with pg_dump and restore with pg_restore (see docs/operations/backups.md).`;

async function backupOrRestore(command: 'backup' | 'restore', file: string | undefined, config: Config): Promise<number> {
  if (!file) {
    process.stderr.write(`A FILE is required.\n${USAGE}\n`);
    return 2;
  }
  if (config.databaseUrl) {
    process.stderr.write(`${ON_POSTGRES}\n`);
    return 2;
  }
  try {
    if (command === 'backup') {
      const bytes = await backupSqlite(config.sqlitePath, file);
      process.stdout.write(`Backed up ${config.sqlitePath} to ${file} (${bytes} bytes, integrity check ok).\n`);
    } else {
      const kept = await restoreSqlite(file, config.sqlitePath, Date.now());
      const previous = kept ? ` The previous database is kept as ${kept}.` : '';
      process.stdout.write(`Restored ${file} to ${config.sqlitePath}.${previous} Migrations run when the server starts.\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof BackupError) {
      process.stderr.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'backup' || command === 'restore') return backupOrRestore(command, args[0], configOrExit());
  if (command !== 'create-superadmin' && command !== 'reset-password' && command !== 'list-users') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = configOrExit();
  const services = await createServices({ ...config, adminEmail: undefined, adminPassword: undefined });
  try {
    if (command === 'list-users') {
      const rows = await usersRepo(services.db).listWithCompanyName();
      for (const u of rows) {
        process.stdout.write(
          `${u.email}\t${USER_TYPE_LABELS[String(u.user_type)] ?? u.user_type}\t${u.company_name ?? '-'}\t${u.is_active ? 'active' : 'inactive'}\n`,
        );
      }
      if (rows.length === 0) process.stdout.write('No users yet.\n');
      return 0;
    }
    const email = option(args, 'email');
    if (!email) {
      process.stderr.write(`--email is required.\n${USAGE}\n`);
      return 2;
    }
    const password = await readPassword();
    try {
      if (command === 'reset-password') {
        const u = await resetPasswordByOperator(services, { email, password });
        const inactive = u.isActive
          ? ''
          : ' The account is deactivated: another super admin must reactivate it (Users Management) before it can sign in.';
        process.stdout.write(`Password of ${email.trim().toLowerCase()} reset; their sessions were ended.${inactive}\n`);
        return 0;
      }
      await createSuperAdmin(services, { email, password, fullName: option(args, 'name') }, { onlyIfNoUsers: false });
    } catch (e) {
      if (e instanceof DomainError) {
        process.stderr.write(`${e.detail}\n`);
        return 1;
      }
      throw e;
    }
    process.stdout.write(`Super admin ${email.trim().toLowerCase()} created.\n`);
    return 0;
  } finally {
    await services.db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`Fatal: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
