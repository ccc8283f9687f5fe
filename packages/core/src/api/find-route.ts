import { MethodNotAllowedError, NotFoundError } from '../errors.js';
import type { Router } from '../http/router.js';
import type { AnyRoute } from '../route.js';

/**
 * The route a path names and the raw path parameters; throws 404 for a path no route has, and 405 for a method
 * other than GET and HEAD on one that exists.
 */
export function findRoute(
  router: Router,
  pathname: string,
  method: string,
): { route: AnyRoute; params: Record<string, string> } {
  const found = router.match(pathname);
  if (!found) throw new NotFoundError(`no such endpoint: ${pathname.slice(0, 200)}`);
  if (method !== 'GET' && method !== 'HEAD')
    throw new MethodNotAllowedError(method, ['GET', 'HEAD', 'OPTIONS']);
  return found;
}
