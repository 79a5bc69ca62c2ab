// The shipped retire.js snapshot recognises each of its ten libraries by its real banner and
// knows which versions are vulnerable; an operator's jsrepository file replaces it.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { scanFileContent } from 'retire/lib/retire.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../tests/support/test-db.ts';
import { loadRetireRepository } from './retire-repository.ts';

const hasher = { sha1: (d: string) => createHash('sha1').update(d).digest('hex') };
const detect = (content: string, file?: string) =>
  scanFileContent(content, loadRetireRepository(file), hasher).map((r) => ({
    lib: `${r.component}@${r.version}`,
    cves: (r.vulnerabilities ?? []).flatMap((v) => v.identifiers.CVE ?? []).sort(),
  }));

describe('the shipped retire.js snapshot', () => {
  it.each([
    [
      '/*! jQuery v1.8.3 jquery.com | jquery.org/license */',
      'jquery@1.8.3',
      ['CVE-2012-6708', 'CVE-2015-9251', 'CVE-2019-11358', 'CVE-2020-11022', 'CVE-2020-11023'],
    ],
    ['/*! jQuery v3.7.1 | (c) OpenJS Foundation and other contributors', 'jquery@3.7.1', []],
    ['/*! jQuery UI - v1.12.1 - 2016-09-14', 'jquery-ui@1.12.1', ['CVE-2021-41182', 'CVE-2021-41183', 'CVE-2021-41184', 'CVE-2022-31160']],
    ['/*! jQuery Migrate v1.1.1 | (c) 2005, 2013 jQuery Foundation', 'jquery-migrate@1.1.1', []],
    [
      '/*!\n * Bootstrap v3.3.7 (http://getbootstrap.com)',
      'bootstrap@3.3.7',
      ['CVE-2018-14040', 'CVE-2018-14042', 'CVE-2019-8331', 'CVE-2024-6484', 'CVE-2024-6485'],
    ],
    ['/*!\n  * Bootstrap v5.3.3 (https://getbootstrap.com/)', 'bootstrap@5.3.3', []],
    [
      '/**\n * @license AngularJS v1.8.3\n',
      'angularjs@1.8.3',
      ['CVE-2022-25844', 'CVE-2022-25869', 'CVE-2023-26116', 'CVE-2023-26117', 'CVE-2023-26118'],
    ],
    ['/**\n * @license\n * lodash 4.17.20 <https://lodash.com/>', 'lodash@4.17.20', ['CVE-2020-28500', 'CVE-2021-23337']],
    ['//! moment.js\n//! version : 2.29.1\n', 'moment.js@2.29.1', ['CVE-2022-24785', 'CVE-2022-31129']],
    ['/**!\n\n @license\n handlebars v4.7.6\n', 'handlebars@4.7.6', ['CVE-2021-23369', 'CVE-2021-23383']],
    ['/*! @license DOMPurify 3.2.4 | (c) Cure53 and other contributors', 'DOMPurify@3.2.4', []],
    ['/*!\n * Vue.js v2.6.14\n * (c) 2014-2021 Evan You', 'vue@2.6.14', ['CVE-2024-6783', 'CVE-2024-9506']],
  ])('%#: %s', (banner, lib, cves) => {
    // jQuery Migrate 1.1.1's two advisories have no CVE: count them instead.
    const found = detect(`${banner}\n(function(){})();\n`);
    expect(found.map((f) => f.lib)).toEqual([lib]);
    expect(found[0].cves).toEqual(cves);
    if (lib === 'jquery-migrate@1.1.1') expect(scanFileContent(banner, loadRetireRepository(), hasher)[0].vulnerabilities).toHaveLength(2);
  });

  it('is replaced by the file RETIREJS_REPOSITORY_FILE names', () => {
    const file = path.join(tempDir(), 'jsrepository.json');
    writeFileSync(
      file,
      JSON.stringify({
        acmejs: {
          vulnerabilities: [
            { below: '2.0.0', severity: 'high', cwe: ['CWE-79'], identifiers: { CVE: ['CVE-2099-0001'], summary: 'x' }, info: [] },
          ],
          extractors: { filecontent: ['/\\*! acme.js v(§§version§§)'] },
        },
      }),
    );
    expect(detect('/*! acme.js v1.2.3 */', file)).toEqual([{ lib: 'acmejs@1.2.3', cves: ['CVE-2099-0001'] }]);
    expect(detect('/*! jQuery v1.8.3 jquery.com | jquery.org/license */', file)).toEqual([]);
  });
});
