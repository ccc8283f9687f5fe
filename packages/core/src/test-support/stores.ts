import type { Store } from '../store.js';

/** A store answering `methods` and failing loudly on any other call (core's tests of the API's steps). */
export function storeWith(methods: Record<string, (...args: any[]) => Promise<unknown>>): Store {
  return new Proxy({} as Store, {
    get: (_t, prop) =>
      methods[String(prop)] ??
      (async () => {
        throw new Error(`unexpected call of ${String(prop)}`);
      }),
  });
}
