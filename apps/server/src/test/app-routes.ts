import type { Express } from 'express';

/** A route the app answers: its method and its path as written (`/games/:gameId/saves`). */
export interface AppRoute {
  method: string;
  path: string;
}

/**
 * Every route the app mounts, read from Express's own router stack with the mount paths joined,
 * so a test that walks the routes covers a route as soon as someone adds it.
 */
export function routesOf(app: Express): AppRoute[] {
  return routesIn(app.router.stack, '');
}

function routesIn(stack: readonly unknown[], prefix: string): AppRoute[] {
  const routes: AppRoute[] = [];
  for (const layer of stack) {
    if (typeof layer !== 'object' || layer === null) {
      continue;
    }
    const route = 'route' in layer ? layer.route : undefined;
    if (typeof route === 'object' && route !== null && 'path' in route && 'methods' in route) {
      const methods = typeof route.methods === 'object' && route.methods ? route.methods : {};
      for (const method of Object.keys(methods)) {
        // `.all()` answers every method: one stands for them
        routes.push({
          method: method === '_all' ? 'GET' : method.toUpperCase(),
          path: `${prefix}${String(route.path)}`,
        });
      }
      continue;
    }
    const handle = 'handle' in layer ? layer.handle : undefined;
    if (typeof handle === 'function' && 'stack' in handle && Array.isArray(handle.stack)) {
      // a mounted router: `use('/auth', router)` keeps '/auth', a bare `use(router)` keeps '/'
      const mount = 'rawPath' in layer && typeof layer.rawPath === 'string' ? layer.rawPath : '/';
      routes.push(...routesIn(handle.stack, mount === '/' ? prefix : `${prefix}${mount}`));
    }
  }
  return routes;
}
