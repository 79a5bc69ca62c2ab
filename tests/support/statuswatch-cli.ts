// The `statuswatch` CLI (monitors as code) run for real: a child process of the project's Node,
// with only PATH and the given environment, answering its exit code and output.
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = join(ROOT, 'src/server/cli/statuswatch.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
