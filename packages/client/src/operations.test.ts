import { v1Routes } from '@explorer/core';
import { describe, expect, it } from 'vitest';
import { operations } from './operations.js';

describe('operations', () => {
  it('is core’s route table: every operation id, path, list and raw flag', () => {
    const fromCore = Object.fromEntries(
      v1Routes.map((r) => [r.id, { path: r.path, list: r.list === true, raw: r.raw === true }]),
    );
    const ours = Object.fromEntries(
      Object.entries(operations).map(([id, o]) => [
        id,
        { path: o.path, list: o.list === true, raw: o.raw === true },
      ]),
    );
    expect(ours).toEqual(fromCore);
  });

  it('names every body member of each route', () => {
    const members = (list: readonly string[]) => [...list].sort();
    const fromCore = Object.fromEntries(
      v1Routes.filter((r) => !r.raw).map((r) => [r.id, members(Object.keys(r.response))]),
    );
    const ours = Object.fromEntries(
      Object.entries(operations)
        .filter(([, o]) => !o.raw)
        .map(([id, o]) => [id, members(o.members)]),
    );
    expect(ours).toEqual(fromCore);
  });
});
