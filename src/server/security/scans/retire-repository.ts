// The vulnerability data the JavaScript library check matches against, in retire.js's
// jsrepository format. retire's npm package does not ship it (its CLI downloads it at run
// time, and the network is closed here), so the product ships a snapshot of the entries for
// the libraries most seen on websites (retire-repository.json, compiled 2026-11-24 from
// retire.js's repository and the NVD: jQuery, jQuery UI, jQuery Migrate, Bootstrap, AngularJS,
// Lodash, Moment, Handlebars, DOMPurify, Vue). An operator points RETIREJS_REPOSITORY_FILE at
// a current full jsrepository.json (https://raw.githubusercontent.com/RetireJS/retire.js/master/repository/jsrepository.json)
// to match every library retire knows. Vulnerabilities may carry `cvss` (a CVSS 3 base score,
// our addition; retire ignores it).
import { readFileSync } from 'node:fs';
import { replaceVersion } from 'retire/lib/retire.js';
import type { RetireRepository } from './types.ts';

const SNAPSHOT = new URL('./retire-repository.json', import.meta.url);

const cache = new Map<string, RetireRepository>();

/** The repository of `file` (the shipped snapshot when undefined), parsed once per process. */
export function loadRetireRepository(file?: string): RetireRepository {
  const key = file ?? '';
  let repo = cache.get(key);
  if (!repo) {
    const text = readFileSync(file ?? SNAPSHOT, 'utf8');
    repo = JSON.parse(replaceVersion(text)) as RetireRepository;
    cache.set(key, repo);
  }
  return repo;
}
