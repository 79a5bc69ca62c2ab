import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../lib/permissions.ts';
import { isPublic, mayOpen, ROUTE_NAMES, ROUTES, routeAt, routeDef } from './routes.ts';
import { SCREENS } from './screens.ts';

/** A concrete path of a route: each :param filled in. */
const sample = (pattern: string) => pattern.replace(/:\w+/g, 'abc123');

describe('the console route table', () => {
  it('each route answers its own path, with or without one trailing slash', () => {
    for (const name of ROUTE_NAMES) {
      expect(routeAt(sample(ROUTES[name].path)), name).toBe(name);
      expect(routeAt(sample(ROUTES[name].path) + '/'), name).toBe(name);
    }
  });

  it('paths are unique and static paths are not shadowed by a parameter', () => {
    const paths = ROUTE_NAMES.map((n) => ROUTES[n].path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(routeAt('/traces')).toBe('traces');
    expect(routeAt('/traces/abc')).toBe('trace');
    expect(routeAt('/monitors/incidents')).toBe('incidents');
    expect(routeAt('/monitors/maintenance')).toBe('maintenanceWindows');
    expect(routeAt('/monitors/0f3c2a')).toBe('monitor');
  });

  it('matches as the Astro pages did: case-sensitive, a parameter is one segment, nothing else', () => {
    const others = [
      '/DASHBOARD',
      '/Traces/abc',
      '/traces/abc/def',
      '/dashboard/x',
      '/admin',
      '/admin/nothing',
      '/no-such-page',
      '/',
      '/dashboard.astro',
    ];
    for (const p of others) expect(routeAt(p), p).toBeUndefined();
    expect(routeAt('/traces/a%2Fb')).toBe('trace');
  });

  it('menu entries sit on routes without parameters that someone may open', () => {
    for (const name of ROUTE_NAMES.filter((n) => routeDef(n).menu)) {
      expect(ROUTES[name].path, name).not.toContain(':');
      expect(isPublic(name), name).toBe(false);
      expect(
        (['super_admin', 'customer_admin', 'customer_viewer'] as Role[]).some((r) => mayOpen(name, r)),
        name,
      ).toBe(true);
    }
  });

  it('every route loads a component', async () => {
    for (const name of ROUTE_NAMES) expect(typeof (await SCREENS[name]()), name).toBe('function');
  });

  it('src/pages holds no console page beside the catch-all that serves the table', () => {
    const pages: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(dir, e.name));
        else pages.push(path.relative(PAGES, path.join(dir, e.name)));
      }
    };
    walk(PAGES);
    // the landing and status pages, first-run setup, the old status page address and the status
    // page subscribers' pages (the form, its confirmation and unsubscribe links) and the alerts'
    // acknowledge link, and the public history, incident and uptime pages are not console routes
    expect(pages.sort()).toEqual([
      '[...path].astro',
      'ack/[token].astro',
      'history.astro',
      'incidents/[id].astro',
      'index.astro',
      'landing.astro',
      'public-status.astro',
      'setup.astro',
      'subscribe/chat.astro',
      'subscribe/confirm/[token].astro',
      'subscribe/confirmed.astro',
      'subscribe/index.astro',
      'subscribe/sms.astro',
      'unsubscribe/[token].astro',
      'uptime.astro',
    ]);
    for (const other of [
      '/',
      '/history',
      '/incidents/x',
      '/uptime',
      '/landing',
      '/public-status',
      '/setup',
      '/subscribe',
      '/subscribe/confirmed',
      '/subscribe/confirm/x',
      '/unsubscribe/x',
    ])
      expect(routeAt(other), other).toBeUndefined();
  });
});

const PAGES = path.resolve(import.meta.dirname, '../../pages');
