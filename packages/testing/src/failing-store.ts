import type { Store } from '@explorer/core';

/** A store that fails every read: for tests of paths that never reach the database. */
export const failingStore = new Proxy({} as Store, {
  get: () => () => Promise.reject(new Error('no database in this test')),
});
