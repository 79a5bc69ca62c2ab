// Part of `npm run lint:deps`: dependency-cruiser cannot parse .astro files, so this checks their
// imports (frontmatter and <script> blocks) against the one rule that concerns them: Astro pages,
// layouts and components never import src/server (they get services through Astro locals; an
// import would bundle a second copy of the database and caches). Usage: node scripts/check-astro-imports.ts [root]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const IMPORT_RE = /\bimport\s*(?:[\w*{}\s,$]+?\s*from\s*)?(?:\(\s*)?['"]([^'"]+)['"]/g;

function astroFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.astro'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every `file -> import` of the .astro files under root/src that lands in root/src/server. */
export function astroServerImports(root: string): string[] {
  const server = path.join(root, 'src', 'server') + path.sep;
  const found: string[] = [];
  for (const file of astroFiles(path.join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      const spec = m[1];
      const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : path.resolve(root, spec);
      if (target.startsWith(server)) found.push(`${path.relative(root, file)} -> ${spec}`);
    }
  }
  return found;
}

if (import.meta.main) {
  const root = path.resolve(process.argv[2] ?? '.');
  const found = astroServerImports(root);
  for (const line of found) console.error(`error astro-never-imports-server: ${line}`);
  if (found.length > 0) process.exit(1);
}
