import { MethodNotAllowedError, NotFoundError } from '../errors.js';
import type { Router, TableRoute } from '../http/router.js';

/**
 * The route a path names and the raw path parameters; throws 404 for a path no route has, and 405 for a method
 * the route does not take (GET and HEAD, or POST for an adapter route that says so).
 */
export function findRoute(
  router: Router,
  pathname: string,
  method: string,
  found = router.match(pathname),
): { route: TableRoute; params: Record<string, string> } {
  if (!found) throw new NotFoundError(`no such endpoint: ${pathname.slice(0, 200)}`);
  const post = 'method' in found.route && found.route.method === 'POST';
  if (post ? method !== 'POST' : method !== 'GET' && method !== 'HEAD')
    throw new MethodNotAllowedError(method, post ? ['POST', 'OPTIONS'] : ['GET', 'HEAD', 'OPTIONS']);
  return found;
}
