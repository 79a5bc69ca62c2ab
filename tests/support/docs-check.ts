// What tests/unit/docs/links.test.ts checks in the Markdown docs, as pure functions over the
// pages' text and a description of the repository, so the test can also prove each check on a
// planted mistake. Each problem names its page and line.
import path from 'node:path';

export interface Repo {
  /** Whether a path relative to the repository root names a file or folder. */
  exists(rel: string): boolean;
  /** The scripts of package.json. */
  scripts: Record<string, string>;
  /** Subcommands of the CLI an npm script runs (`admin`, `cli`), or undefined for other scripts. */
  subcommands(script: string): string[] | undefined;
  /** Executables of node_modules/.bin (what `npx X` runs). */
  bins: Set<string>;
}

/** A piece of a page: prose (inline code removed), an inline code span, or a fenced block's line. */
interface Piece {
  kind: 'prose' | 'code';
  text: string;
  line: number;
}

/** Splits a page into prose and code, tracking fences (``` or ~~~, indented inside lists too). */
export function pieces(markdown: string): Piece[] {
  const out: Piece[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const open = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && raw.trim() === open[1]) fence = undefined;
      else out.push({ kind: 'code', text: raw, line });
      return;
    }
    if (open) {
      fence = open[1];
      return;
    }
    // `path` (new) names a file the reader is about to create (the worked examples of
    // docs/development/extension-points.md): it is prose, not a claim that the file exists.
    const prose = raw.replace(/(`+)(.+?)\1( \(new\))?/g, (_m, _ticks, code: string, isNew?: string) => {
      if (isNew === undefined) out.push({ kind: 'code', text: code, line });
      return ' ';
    });
    out.push({ kind: 'prose', text: prose, line });
  });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a page's headings, numbered as GitHub numbers repeated ones (`x`, `x-1`). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const p of pieces(markdown)) {
    if (p.kind !== 'prose') continue;
    const m = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(p.text);
    if (!m) continue;
    // The code spans of a heading were taken out of its prose: read the raw line again.
    const raw = markdown
      .split('\n')
      [p.line - 1].replace(/^ {0,3}#{1,6}\s+/, '')
      .replace(/\s*#*\s*$/, '');
    const base = slug(raw);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative links that lead nowhere: a missing file, or a #anchor no heading of the page has. */
export function brokenLinks(pages: Map<string, string>, repo: Repo): string[] {
  const problems: string[] = [];
  for (const [file, text] of pages) {
    for (const p of pieces(text)) {
      if (p.kind !== 'prose') continue;
      for (const m of p.text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [pathPart, anchor] = target.split('#', 2);
        const rel = pathPart ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart))) : file;
        const where = `${file}:${p.line}: ${target}`;
        if (rel.startsWith('..')) {
          problems.push(`${where} leaves the repository`);
          continue;
        }
        if (!pages.has(rel) && !repo.exists(rel)) {
          problems.push(`${where}: no such file`);
          continue;
        }
        if (anchor === undefined) continue;
        const page = pages.get(rel);
        if (page === undefined) problems.push(`${where}: #${anchor} points into a file that is not a Markdown page`);
        else if (!anchors(page).has(anchor)) problems.push(`${where}: ${rel} has no heading #${anchor}`);
      }
    }
  }
  return problems;
}

/** Pages that no chain of links from README.md reaches (the map must lead to every page). */
export function unreachablePages(pages: Map<string, string>): string[] {
  const reached = new Set<string>(['README.md']);
  const queue = ['README.md'];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const p of pieces(pages.get(file) ?? '')) {
      if (p.kind !== 'prose') continue;
      for (const m of p.text.matchAll(/\]\(\s*<?([^)\s>#]+)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(m[1])) continue;
        const rel = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(m[1])));
        if (pages.has(rel) && !reached.has(rel)) {
          reached.add(rel);
          queue.push(rel);
        }
      }
    }
  }
  return [...pages.keys()].filter((f) => !reached.has(f));
}

/** npm commands npm itself answers (not scripts of package.json). */
const NPM_BUILTINS = new Set(['install', 'i', 'ci', 'exec', 'ls', 'view', 'outdated', 'audit', 'update', 'uninstall']);
/** `npm test` and `npm start` run the package's scripts of those names. */
const NPM_SCRIPT_SHORTHANDS = new Set(['test', 'start', 'stop', 'restart']);

/** Repository paths shown in code: `src/…`, `tests/…`, `scripts/…`, … (placeholders skipped). */
const REPO_PATH = /^(?:\.\/)?((?:src|tests|scripts|bench|openapi|schemas|docs|\.ci)\/[\w./@[\]-]*)$/;

/**
 * Commands and paths in code (fenced blocks and inline code) that do not exist: `npm run X` and
 * `npm X` naming no script, `npm run cli|admin -- SUB` naming no subcommand of that CLI,
 * `npx X` naming no installed tool, `node FILE` and repository paths naming no file.
 */
export function brokenCommands(pages: Map<string, string>, repo: Repo): string[] {
  const problems: string[] = [];
  const scriptNamed = (name: string) =>
    name.includes('*')
      ? Object.keys(repo.scripts).some((s) => new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(s))
      : name in repo.scripts;
  for (const [file, text] of pages) {
    for (const p of pieces(text)) {
      if (p.kind !== 'code') continue;
      const where = `${file}:${p.line}`;
      for (const m of p.text.matchAll(
        /\bnpm\s+(?:run(?:-script)?\s+(?:--silent\s+|-s\s+)?([\w:.*-]+)(?:\s+--\s+([\w-]+))?|([a-z][\w-]*))/g,
      )) {
        const [, script, sub, command] = m;
        if (command !== undefined) {
          if (NPM_SCRIPT_SHORTHANDS.has(command)) {
            if (!scriptNamed(command)) problems.push(`${where}: npm ${command}: package.json has no "${command}" script`);
          } else if (!NPM_BUILTINS.has(command) && command !== 'run')
            problems.push(`${where}: npm ${command}: not an npm command this project uses`);
          continue;
        }
        if (!scriptNamed(script)) {
          problems.push(`${where}: npm run ${script}: package.json has no such script`);
          continue;
        }
        const subs = repo.subcommands(script);
        if (sub !== undefined && subs !== undefined && !subs.includes(sub)) {
          problems.push(`${where}: npm run ${script} -- ${sub}: the CLI has no such command (it has ${subs.join(', ')})`);
        }
      }
      for (const m of p.text.matchAll(/\bnpx\s+([\w@/.-]+)/g)) {
        if (!repo.bins.has(m[1])) problems.push(`${where}: npx ${m[1]}: no such tool in node_modules/.bin`);
      }
      for (const m of p.text.matchAll(/\bnode\s+((?:\.\/)?[\w.-]+\/[\w./-]+)/g)) {
        if (!repo.exists(m[1].replace(/^\.\//, ''))) problems.push(`${where}: node ${m[1]}: no such file`);
      }
      for (const token of p.text.split(/[\s'"`(),;=]+/)) {
        const m = REPO_PATH.exec(token.replace(/[.:,]+$/, ''));
        if (m && !repo.exists(m[1].replace(/\/$/, ''))) problems.push(`${where}: ${m[1]}: no such file or folder`);
      }
    }
  }
  return problems;
}

/** The variables a configuration page documents: the backticked names in its tables' first column. */
export function documentedVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*\*?)`/g)) names.add(m[1]);
  }
  return names;
}

/** The environment variables a config module reads: `env.NAME`, `env, 'NAME'`, `env['NAME']`, prefixes. */
export function variablesRead(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1]);
  for (const m of source.matchAll(/\benv,\s*'([A-Z][A-Z0-9_]+)'/g)) names.add(m[1]);
  for (const m of source.matchAll(/\benv\[\s*'([A-Z][A-Z0-9_]+)'\s*\]/g)) names.add(m[1]);
  for (const m of source.matchAll(/startsWith\('([A-Z][A-Z0-9_]+_)'\)/g)) names.add(`${m[1]}*`);
  return names;
}
