// The project's Markdown documentation (README.md and docs/**/*.md), read for the tests that keep
// it true: the link and command checks (tests/unit/docs/links.test.ts) and the tests that run the
// recipes, nginx blocks and YAML example the docs show as written.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** README.md and every docs/**\/*.md, as paths relative to the repository, README first. */
export function markdownFiles(root = ROOT): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
  return ['README.md', ...docs];
}

/** One page of the docs, by its path relative to the repository (`docs/api.md`). */
export function docPage(file: string, root = ROOT): string {
  return readFileSync(path.join(root, file), 'utf8');
}

/** Every page one after the other, for tests that look for marked blocks wherever they live. */
export function allDocs(root = ROOT): string {
  return markdownFiles(root)
    .map((f) => docPage(f, root))
    .join('\n');
}
