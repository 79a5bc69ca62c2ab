// The docs stay true to the repository: every relative link of README.md and docs/**/*.md leads to
// an existing file (and its #anchor to a heading of that page), every page is reached from the
// README's map, every command shown in code names a real npm script, CLI subcommand, tool or
// file, and docs/configuration.md documents exactly the variables the server's configuration
// reads. Each check is also proven on a planted mistake.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchors,
  brokenCommands,
  brokenLinks,
  documentedVariables,
  type Repo,
  slug,
  unreachablePages,
  variablesRead,
} from '../../support/docs-check.ts';
import { docPage, markdownFiles, ROOT } from '../../support/docs.ts';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** The subcommands a CLI script dispatches on (`command === 'apply'`), read from its source. */
function subcommands(script: string): string[] | undefined {
  const file = /^node (src\/server\/cli\/[\w/-]+\.ts)$/.exec(pkg.scripts[script] ?? '')?.[1];
  if (!file) return undefined;
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  return [...new Set([...source.matchAll(/\bcommand\s*[!=]==\s*'([\w-]+)'/g)].map((m) => m[1]))];
}

const repo: Repo = {
  exists: (rel) => existsSync(path.join(ROOT, rel)),
  scripts: pkg.scripts,
  subcommands,
  bins: new Set(readdirSync(path.join(ROOT, 'node_modules', '.bin'))),
};

const pages = new Map(markdownFiles().map((f) => [f, docPage(f)]));

/** The server's configuration module and the modules beside it that it hands the environment to. */
function configSources(): string {
  const file = path.join(ROOT, 'src/server/config.ts');
  const source = readFileSync(file, 'utf8');
  const local = [...source.matchAll(/from '(\.[^']+\.ts)'/g)].map((m) => path.resolve(path.dirname(file), m[1]));
  return [source, ...local.map((f) => readFileSync(f, 'utf8'))].join('\n');
}

describe('the docs', () => {
  it('are README.md and the pages under docs/', () => {
    expect(pages.get('README.md')).toBeDefined();
    expect([...pages.keys()].filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  it('have no relative link to a missing file or heading', () => {
    expect(brokenLinks(pages, repo)).toEqual([]);
  });

  it('are all reached from the README', () => {
    expect(unreachablePages(pages)).toEqual([]);
  });

  it('show only commands, CLI subcommands, tools and files that exist', () => {
    expect(brokenCommands(pages, repo)).toEqual([]);
  });

  it('keep the README a short front door with Quick start in its first 30 lines', () => {
    const readme = pages.get('README.md')!.split('\n');
    expect(readme.length).toBeLessThanOrEqual(200);
    const quickStart = readme.indexOf('## Quick start');
    expect(quickStart).toBeGreaterThanOrEqual(0);
    expect(quickStart).toBeLessThan(30);
    expect(readme.join('\n')).toContain('npm install && npm start');
    expect(readme.join('\n')).toMatch(/^npm test\b/m);
  });

  it('document in docs/configuration.md exactly the variables src/server/config.ts reads', () => {
    const documented = documentedVariables(pages.get('docs/configuration.md')!);
    const read = variablesRead(configSources());
    expect([...read].filter((v) => !documented.has(v)).sort(), 'read but not documented').toEqual([]);
    expect([...documented].filter((v) => !read.has(v)).sort(), 'documented but not read').toEqual([]);
  });
});

describe('the checks themselves', () => {
  const fake: Repo = {
    exists: (rel) => ['README.md', 'docs/a.md', 'src/server/main.ts', 'openapi/openapi.yaml'].includes(rel),
    scripts: { start: 'x', test: 'x', cli: 'node src/server/cli/statuswatch.ts', 'bench:engine': 'x' },
    subcommands: (s) => (s === 'cli' ? ['export', 'apply'] : undefined),
    bins: new Set(['vitest']),
  };

  it('make GitHub anchors of headings', () => {
    expect(slug('Acknowledge, escalate, personal delivery')).toBe('acknowledge-escalate-personal-delivery');
    expect(slug('SSL/TLS monitoring')).toBe('ssltls-monitoring');
    expect(slug('Security suite: assets and verification')).toBe('security-suite-assets-and-verification');
    expect(slug('The `npm test` stages')).toBe('the-npm-test-stages');
    expect([...anchors('# A\n## Setup\n```sh\n# not a heading\n```\n## Setup\n')]).toEqual(['a', 'setup', 'setup-1']);
  });

  it('find a planted broken link, a missing anchor and an unreached page', () => {
    const planted = new Map([
      ['README.md', '# R\n\nSee [a](docs/a.md#usage), [b](docs/b.md), [c](docs/a.md#nothing) and [web](https://example.com).\n'],
      ['docs/a.md', '# A\n\n## Usage\n\n[back](../README.md#r), `[not a link](x.md)`\n'],
      ['docs/orphan.md', '# Orphan\n'],
    ]);
    expect(brokenLinks(planted, fake)).toEqual([
      'README.md:3: docs/b.md: no such file',
      'README.md:3: docs/a.md#nothing: docs/a.md has no heading #nothing',
    ]);
    expect(unreachablePages(planted)).toEqual(['docs/orphan.md']);
  });

  it('find a planted unknown npm script, CLI subcommand, tool and file', () => {
    const planted = new Map([
      [
        'docs/a.md',
        [
          '```sh',
          'npm install && npm start',
          'npm run bench:engine -- --pg',
          'npm run bench:nothing',
          'npm run cli -- apply x.yaml',
          'npm run cli -- destroy',
          'npx vitest run && npx jest',
          'node src/server/main.ts && node src/server/gone.ts && node app.js',
          '```',
          'Inline: `npm run lint`, `npm run bench:*`, `npm frobnicate`, `src/server/missing.ts`, `openapi/openapi.yaml`.',
          'To create: `src/server/engine/kinds/smtp.ts` (new), but `src/server/engine/kinds/imap.ts` exists?',
        ].join('\n'),
      ],
    ]);
    expect(brokenCommands(planted, fake)).toEqual([
      'docs/a.md:4: npm run bench:nothing: package.json has no such script',
      'docs/a.md:6: npm run cli -- destroy: the CLI has no such command (it has export, apply)',
      'docs/a.md:7: npx jest: no such tool in node_modules/.bin',
      'docs/a.md:8: node src/server/gone.ts: no such file',
      'docs/a.md:8: src/server/gone.ts: no such file or folder',
      'docs/a.md:10: npm run lint: package.json has no such script',
      'docs/a.md:10: npm frobnicate: not an npm command this project uses',
      'docs/a.md:10: src/server/missing.ts: no such file or folder',
      'docs/a.md:11: src/server/engine/kinds/imap.ts: no such file or folder',
    ]);
  });

  it('compare documented and read variables both ways', () => {
    const doc =
      '| Variable | Default |\n|---|---|\n| `PORT` | 1 |\n| `TWILIO_A`, `TWILIO_B` | unset |\n| `FLAG_ENABLE_*` | unset |\n| `GONE` | x |\n';
    expect([...documentedVariables(doc)].sort()).toEqual(['FLAG_ENABLE_*', 'GONE', 'PORT', 'TWILIO_A', 'TWILIO_B']);
    const src = "int(env, 'PORT', 1); env.TWILIO_A; env['TWILIO_B']; k.startsWith('FLAG_ENABLE_'); env.NEW_ONE";
    expect([...variablesRead(src)].sort()).toEqual(['FLAG_ENABLE_*', 'NEW_ONE', 'PORT', 'TWILIO_A', 'TWILIO_B']);
  });
});
