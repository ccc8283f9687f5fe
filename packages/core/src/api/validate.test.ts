import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadRequestError } from '../errors.js';
import { validate } from './validate.js';

const route = {
  params: z.object({ height: z.coerce.number().int().min(0) }),
  query: z.object({ limit: z.coerce.number().int().max(100).optional() }),
};
const problem = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(BadRequestError);
    return (err as Error).message;
  }
  throw new Error('expected a 400');
};

describe('validate', () => {
  it('parses path and query parameters by the route’s schemas', () => {
    expect(validate(route, { height: '12' }, new URLSearchParams('limit=5'))).toEqual({
      params: { height: 12 },
      query: { limit: 5 },
    });
    expect(validate({}, {}, new URLSearchParams())).toEqual({ params: {}, query: {} });
  });

  it('names the first problem: unknown, repeated, missing or malformed', () => {
    expect(problem(() => validate(route, { height: '1' }, new URLSearchParams('x=1')))).toBe(
      "unknown query parameter 'x'; allowed: limit",
    );
    expect(problem(() => validate({}, {}, new URLSearchParams('x=1')))).toBe(
      "this endpoint takes no query parameters (got 'x')",
    );
    expect(problem(() => validate(route, { height: '1' }, new URLSearchParams('limit=1&limit=2')))).toBe(
      "query parameter 'limit' is given more than once",
    );
    expect(problem(() => validate(route, {}, new URLSearchParams()))).toBe(
      'path parameter height is required',
    );
    expect(problem(() => validate(route, { height: '1' }, new URLSearchParams('limit=500')))).toMatch(
      /^limit: /,
    );
  });
});
