// The import rules of DESIGN.md section 2 and the formatter are enforced: `npm test` (scripts/test.sh)
// runs `npm run lint:deps`, which fails when a file breaks a rule. Each rule is proven on a tiny
// throwaway tree with the project's own configs, so the real tree is never touched.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { astroServerImports } from '../../scripts/check-astro-imports.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sw-layering-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let trees = 0;
/** A throwaway project: the given files (path -> source) plus a minimal tsconfig. */
function tree(files: Record<string, string>): string {
  const dir = path.join(tmp, `t${++trees}`);
  const all = { 'tsconfig.json': '{ "compilerOptions": { "allowImportingTsExtensions": true, "noEmit": true } }', ...files };
  for (const [file, body] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
  }
  return dir;
}

/** `depcruise src` with the project's rules, as `npm run lint:deps` runs it. */
function cruise(dir: string): { code: number | null; violations: string[] } {
  const run = spawnSync(
    path.join(BIN, 'depcruise'),
    ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` },
    },
  );
  // `error rule: a → b`, a cycle as `error rule: a → ⏎ b → ⏎ a`
  const violations = [...run.stdout.matchAll(/^\s*error ([\w-]+): ((?:\S+ →\s*)+\S+)/gm)].map(
    (m) => `${m[1]}: ${m[2].split(/\s*→\s*/).join(' -> ')}`,
  );
  return { code: run.status, violations };
}

// Files every tree holds, importing each other only as DESIGN.md allows.
const LEGAL: Record<string, string> = {
  'src/lib/status.ts': "import { clamp } from './thresholds.ts';\nexport const ok = clamp(1);\n",
  'src/lib/thresholds.ts': 'export const clamp = (n: number) => Math.min(n, 100);\n',
  'src/api/client.ts': "import { ok } from '../lib/status.ts';\nexport const client = { ok };\n",
  'src/islands/console/App.tsx':
    "import { client } from '../../api/client.ts';\nimport { ok } from '../../lib/status.ts';\nexport const App = () => client.ok && ok;\n",
  'src/islands/console/routes.ts': 'export const routes = [];\n',
  'src/pages/console.ts':
    "import { routes } from '../islands/console/routes.ts';\nimport { ok } from '../lib/status.ts';\nexport default [routes, ok];\n",
  'src/server/db/users-repo.ts': "import { ok } from '../../lib/status.ts';\nexport const usersRepo = { ok };\n",
  'src/server/domain/users.ts':
    "import { usersRepo } from '../db/users-repo.ts';\nexport type Check = { id: string };\nexport const users = usersRepo;\n",
  'src/server/engine/ports.ts': 'export interface Results { record(id: string): void }\n',
  'src/server/engine/scheduler.ts': "import type { Results } from './ports.ts';\nexport const start = (r: Results) => r.record('x');\n",
  'src/server/http/users-handler.ts':
    "import { users } from '../domain/users.ts';\nimport { start } from '../engine/scheduler.ts';\nexport const h = [users, start];\n",
};

describe('dependency rules (DESIGN.md section 2)', () => {
  it('a tree that keeps the rules passes', () => {
    expect(cruise(tree(LEGAL))).toEqual({ code: 0, violations: [] });
  });

  it('fails when a file in src/server/engine imports from src/server/domain', () => {
    const result = cruise(
      tree({ ...LEGAL, 'src/server/engine/__probe.ts': "import { users } from '../domain/users.ts';\nexport const p = users;\n" }),
    );
    expect(result.code).not.toBe(0);
    expect(result.violations).toEqual(['engine-never-imports-domain: src/server/engine/__probe.ts -> src/server/domain/users.ts']);
  });

  it('a type-only import breaks a rule as much as a value import', () => {
    const result = cruise(
      tree({ ...LEGAL, 'src/server/engine/__probe.ts': "import type { Check } from '../domain/users.ts';\nexport type P = Check;\n" }),
    );
    expect(result.violations).toEqual(['engine-never-imports-domain: src/server/engine/__probe.ts -> src/server/domain/users.ts']);
  });

  it('src/server/net sits below every area: it imports only src/lib, node: and itself', () => {
    const net = {
      'src/server/net/dns.ts': "import { lookup } from 'node:dns/promises';\nexport const resolve = lookup;\n",
      'src/server/net/ssrf.ts':
        "import { resolve } from './dns.ts';\nimport { ok } from '../../lib/status.ts';\nexport const guard = [resolve, ok];\n",
    };
    expect(cruise(tree({ ...LEGAL, ...net }))).toEqual({ code: 0, violations: [] });
    const result = cruise(
      tree({
        ...LEGAL,
        ...net,
        'src/server/net/__probe.ts':
          "import type { Results } from '../engine/ports.ts';\nimport { z } from 'zod';\nexport type P = Results;\nexport const q = z;\n",
      }),
    );
    expect(result.code).not.toBe(0);
    expect(result.violations.sort()).toEqual([
      'net-imports-only-lib-and-node: src/server/net/__probe.ts -> src/server/engine/ports.ts',
      'net-imports-only-lib-and-node: src/server/net/__probe.ts -> zod',
    ]);
  });

  it('config.ts reaches nothing of domain/ or security/, not even through a module of its own', () => {
    const config = {
      'src/server/threat-config.ts': 'export const threatConfig = () => ({});\n',
      'src/server/config.ts': "import { threatConfig } from './threat-config.ts';\nexport const parseConfig = threatConfig;\n",
      'src/server/security/feeds.ts': "import { threatConfig } from '../threat-config.ts';\nexport const feeds = threatConfig;\n",
    };
    expect(cruise(tree({ ...LEGAL, ...config }))).toEqual({ code: 0, violations: [] });
    const direct = cruise(
      tree({
        ...LEGAL,
        ...config,
        'src/server/config.ts': "import { users } from './domain/users.ts';\nexport const parseConfig = users;\n",
      }),
    );
    expect(direct.code).not.toBe(0);
    expect(direct.violations).toEqual(['config-imports-no-domain-or-security: src/server/config.ts -> src/server/domain/users.ts']);
    const through = cruise(
      tree({
        ...LEGAL,
        ...config,
        'src/server/threat-config.ts': "import type { Check } from './domain/users.ts';\nexport const threatConfig = (c?: Check) => c;\n",
      }),
    );
    expect(through.code).not.toBe(0);
    expect(through.violations).toEqual(['config-imports-no-domain-or-security: src/server/config.ts -> src/server/domain/users.ts']);
  });

  it('names every other broken rule', () => {
    const result = cruise(
      tree({
        ...LEGAL,
        'src/lib/bad.ts':
          "import { client } from '../api/client.ts';\nimport { readFileSync } from 'node:fs';\nexport const b = [client, readFileSync];\n",
        'src/api/bad.ts': "import { App } from '../islands/console/App.tsx';\nexport const b = App;\n",
        'src/islands/console/bad.ts': "import { users } from '../../server/domain/users.ts';\nexport const b = users;\n",
        'src/pages/bad.ts': "import { users } from '../server/domain/users.ts';\nexport const b = users;\n",
        'src/server/http/bad.ts': "import { usersRepo } from '../db/users-repo.ts';\nexport const b = usersRepo;\n",
        'src/server/domain/bad.ts': "import { h } from '../http/users-handler.ts';\nexport const b = h;\n",
        'src/server/db/migrations/0999_probe.ts': "import { ok } from '../../../lib/status.ts';\nexport const up = () => ok;\n",
        'src/server/domain/cycle-a.ts': "import type { B } from './cycle-b.ts';\nexport type A = { b?: B };\n",
        'src/server/domain/cycle-b.ts': "import type { A } from './cycle-a.ts';\nexport type B = { a?: A };\n",
      }),
    );
    expect(result.code).not.toBe(0);
    expect(result.violations.sort()).toEqual(
      [
        'lib-imports-nothing-of-ours: src/lib/bad.ts -> src/api/client.ts',
        'lib-is-dependency-free: src/lib/bad.ts -> fs',
        'api-imports-only-lib: src/api/bad.ts -> src/islands/console/App.tsx',
        'islands-import-only-api-and-lib: src/islands/console/bad.ts -> src/server/domain/users.ts',
        'astro-never-imports-server: src/islands/console/bad.ts -> src/server/domain/users.ts',
        'astro-never-imports-server: src/pages/bad.ts -> src/server/domain/users.ts',
        'http-never-imports-db: src/server/http/bad.ts -> src/server/db/users-repo.ts',
        'migrations-are-frozen: src/server/db/migrations/0999_probe.ts -> src/lib/status.ts',
        'domain-never-imports-http: src/server/domain/bad.ts -> src/server/http/users-handler.ts',
        'no-cycles: src/server/domain/cycle-a.ts -> src/server/domain/cycle-b.ts -> src/server/domain/cycle-a.ts',
      ].sort(),
    );
  });

  it('a cycle outside src/server, and one console feature importing another (code or CSS), are caught', () => {
    const feature = 'src/islands/console/features';
    const result = cruise(
      tree({
        ...LEGAL,
        'src/islands/console/ui/table.css': '.t {}\n',
        [`${feature}/users/store.ts`]: 'export const users = [];\n',
        [`${feature}/users/users.css`]: '.u {}\n',
        [`${feature}/users/UsersPage.ts`]:
          "import { users } from './store.ts';\nimport './users.css';\nimport '../../ui/table.css';\nexport const p = users;\n",
        [`${feature}/team/TeamPage.ts`]:
          "import { users } from '../users/store.ts';\nimport '../users/users.css';\nexport const p = users;\n",
        [`${feature}/account/plant-a.ts`]: "import { b } from './plant-b.ts';\nexport const a = () => b;\n",
        [`${feature}/account/plant-b.ts`]: "import { a } from './plant-a.ts';\nexport const b = () => a;\n",
      }),
    );
    expect(result.code).not.toBe(0);
    expect(result.violations.sort()).toEqual(
      [
        `no-cycles: ${feature}/account/plant-a.ts -> ${feature}/account/plant-b.ts -> ${feature}/account/plant-a.ts`,
        `console-features-never-import-each-other: ${feature}/team/TeamPage.ts -> ${feature}/users/store.ts`,
        `console-features-never-import-each-other: ${feature}/team/TeamPage.ts -> ${feature}/users/users.css`,
      ].sort(),
    );
  });

  it('an .astro page, layout or component importing src/server is caught too', () => {
    const dir = tree({
      'src/pages/index.astro':
        "---\nimport Base from '../layouts/Base.astro';\nimport { ok } from '../lib/status.ts';\n---\n<Base>{ok}</Base>\n",
      'src/layouts/Base.astro': "---\nimport { openDb } from '../server/db/connect.ts';\n---\n<slot />\n",
      'src/components/Tip.astro': "<div />\n<script>\n  import '../server/engine/scheduler.ts';\n</script>\n",
    });
    expect(astroServerImports(dir).sort()).toEqual([
      'src/components/Tip.astro -> ../server/engine/scheduler.ts',
      'src/layouts/Base.astro -> ../server/db/connect.ts',
    ]);
  });

  it('npm test runs the dependency rules and the linter before any test', () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts['lint:deps']).toBe('depcruise src --output-type err && node scripts/check-astro-imports.ts');
    expect(scripts.lint).toBe('biome lint');
    const testSh = readFileSync(path.join(ROOT, 'scripts/test.sh'), 'utf8');
    // Both run beside the build (check NAME LOG COMMAND); any failed check stops the run before Vitest.
    const deps = testSh.search(/check "dependency rules" \S+ npm run --silent lint:deps\n/);
    const lint = testSh.search(/check "biome lint" \S+ npm run --silent lint\n/);
    const stop = testSh.search(/if \[ \$\{#failed_checks\[@\]\} -gt 0 \]; then[\s\S]*?fail_setup/);
    const vitest = testSh.indexOf('vitest run');
    expect([deps, lint, stop].every((i) => i > 0 && i < vitest)).toBe(true);
  });
});

describe('formatter (biome.jsonc)', () => {
  function format(files: Record<string, string>): number | null {
    const dir = tree(files);
    copyFileSync(path.join(ROOT, 'biome.jsonc'), path.join(dir, 'biome.jsonc'));
    return spawnSync(path.join(BIN, 'biome'), ['format', '--vcs-enabled=false', 'src'], { cwd: dir, encoding: 'utf8' }).status;
  }

  it('accepts code in the project style and refuses code that is off', () => {
    expect(format({ 'src/lib/a.ts': "export const a = { b: 'c', d: [1, 2] };\n" })).toBe(0);
    expect(format({ 'src/lib/a.ts': 'export const a = { b: "c", d: [1,2] }\n' })).not.toBe(0);
  });
});
