import { describe, expect, it } from 'vitest';
import { MethodNotAllowedError, NotFoundError } from '../errors.js';
import { createRouter } from '../http/router.js';
import { v1Routes } from '../routes/index.js';
import { findRoute } from './find-route.js';

describe('findRoute', () => {
  const router = createRouter(v1Routes);

  it('finds the route and raw path parameters for GET and HEAD', () => {
    expect(findRoute(router, '/v1/blocks/12', 'GET')).toMatchObject({
      route: { id: 'getBlock' },
      params: { heightOrHash: '12' },
    });
    expect(findRoute(router, '/v1/search/suggest', 'HEAD').route.id).toBe('suggest');
  });

  it('answers 404 for a path no route has, before 405 for a method', () => {
    expect(() => findRoute(router, '/v1/nothing', 'POST')).toThrow(NotFoundError);
    expect(() => findRoute(router, '/v1/blocks', 'POST')).toThrow(MethodNotAllowedError);
  });
});
