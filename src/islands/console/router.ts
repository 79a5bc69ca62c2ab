// The client router over the route table (routes.ts). Unknown paths match nothing and show 'Page Not Found'.
import { createRouter } from '@nanostores/router';
import { ROUTE_NAMES, ROUTES, type RouteName } from './routes.ts';

export type { RouteName } from './routes.ts';

type Paths = { [K in RouteName]: (typeof ROUTES)[K]['path'] };

export const $router = createRouter(Object.fromEntries(ROUTE_NAMES.map((name) => [name, ROUTES[name].path])) as Paths);

/** Navigate inside the app (no reload). */
export function go(path: string, replace = false): void {
  $router.open(path, replace);
}
