import type { AdapterRoute } from '../adapters/adapter.js';
import type { AnyRoute } from '../route.js';

/** A route of the table: a `/v1` route or a protocol adapter's. */
export type TableRoute = AnyRoute | AdapterRoute;

/** A compiled route table: finds the route of a path and the methods a path allows. */
export interface Router<R extends { path: string } = TableRoute> {
  match(pathname: string): { route: R; params: Record<string, string> } | null;
}

interface Compiled<R> {
  route: R;
  segments: (string | { param: string })[];
}

/** Compiles routes with `{param}` segments; static segments win over parameters at the same depth. */
export function createRouter<R extends { path: string } = TableRoute>(routes: readonly R[]): Router<R> {
  const byLength = new Map<number, Compiled<R>[]>();
  for (const route of routes) {
    const segments = route.path
      .split('/')
      .filter(Boolean)
      .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : s));
    const list = byLength.get(segments.length) ?? [];
    list.push({ route, segments });
    byLength.set(segments.length, list);
  }
  // More static segments first, so /v1/search/suggest beats a parameter at the same position.
  for (const list of byLength.values()) {
    list.sort(
      (a, b) =>
        b.segments.filter((s) => typeof s === 'string').length -
        a.segments.filter((s) => typeof s === 'string').length,
    );
  }
  return {
    match(pathname) {
      const parts = pathname.split('/').filter(Boolean);
      const candidates = byLength.get(parts.length);
      if (!candidates) return null;
      outer: for (const c of candidates) {
        const params: Record<string, string> = {};
        for (let i = 0; i < parts.length; i++) {
          const seg = c.segments[i]!;
          const part = parts[i]!;
          if (typeof seg === 'string') {
            if (seg !== part) continue outer;
          } else {
            let value: string;
            try {
              value = decodeURIComponent(part);
            } catch {
              value = '\u0000';
            }
            params[seg.param] = value;
          }
        }
        return { route: c.route, params };
      }
      return null;
    },
  };
}
