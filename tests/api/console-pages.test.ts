// The built site serves every console route of the route table (src/islands/console/routes.ts)
// through one catch-all Astro page: status 200 and the route's title; anything else 404 and
// 'Page Not Found'. Needs the build the test command makes first (as console-budget.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { distDirFromEnv } from '../../scripts/console-budget.ts';
import { ROUTE_NAMES, ROUTES } from '../../src/islands/console/routes.ts';
import { CONSOLE_AREA } from '../../src/lib/i18n/messages/console/index.ts';

const en = CONSOLE_AREA.translator('en');
const de = CONSOLE_AREA.translator('de');

describe('console pages from the route table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite', withPages: true, env: { DIST_DIR: distDirFromEnv() } });
  });
  afterAll(async () => t?.close());

  const page = async (path: string) => {
    const r = await fetch(`http://localhost:${t.port}${path}`, { redirect: 'manual' });
    const title = /<title>([^<]*)<\/title>/.exec(await r.text())?.[1];
    return { status: r.status, title };
  };

  it('each route answers 200 with its title, with or without a trailing slash', async () => {
    for (const name of ROUTE_NAMES) {
      const path = ROUTES[name].path.replace(/:\w+/g, 'abc123');
      const want = { status: 200, title: `${en.t(ROUTES[name].title)} · StatusWatch` };
      expect(await page(path), path).toEqual(want);
      expect(await page(path + '/'), path + '/').toEqual(want);
    }
  });

  it("titles the tab in the browser's language: German for Accept-Language de", async () => {
    const r = await fetch(`http://localhost:${t.port}/monitors/incidents`, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    const title = /<title>([^<]*)<\/title>/.exec(await r.text())?.[1];
    expect(title).toBe(`${de.t('routes.incidents.title')} · StatusWatch`);
    expect(title).toBe('Vorfälle · StatusWatch');
  });

  it('other paths answer 404 with the console saying Page Not Found', async () => {
    for (const path of ['/no-such-page', '/admin', '/admin/nothing', '/traces/abc/def', '/DASHBOARD', '/dashboard/x']) {
      expect(await page(path), path).toEqual({ status: 404, title: 'Page Not Found · StatusWatch' });
    }
  });
});
