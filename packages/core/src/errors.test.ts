import { describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE, toApiError } from './errors.js';

/** A database failure as @explorer/db marks one (core recognises it by shape, not by class). */
const dbError = (marks: { unavailable?: boolean; diskFull?: boolean; timedOut?: boolean }) =>
  Object.assign(new Error('pool.connect: secret detail'), { name: 'DatabaseError', ...marks });

describe('toApiError', () => {
  it('answers 503 for a database that takes no connection, whether down or out of disk, and hides the detail', () => {
    for (const marks of [{ unavailable: true }, { diskFull: true }]) {
      const e = toApiError(dbError(marks));
      expect(e.status).toBe(503);
      expect(e.message).toBe('the database is unavailable; retry shortly');
    }
    expect(toApiError(dbError({ timedOut: true })).status).toBe(503);
  });

  it('answers 500 with the generic message for any other failure', () => {
    for (const err of [dbError({}), new Error('boom'), 'thrown string', null]) {
      const e = toApiError(err);
      expect(e.status).toBe(500);
      expect(e.message).toBe(INTERNAL_ERROR_MESSAGE);
    }
  });
});
