import { z } from 'zod';
import { defineRoute } from '../route.js';

const document = z.record(z.string(), z.unknown());

/** The two routes that serve the OpenAPI document itself (unwrapped, so OpenAPI tools can read it). */
export const docsRoutes = [
  defineRoute({
    id: 'getOpenApiDocument',
    path: '/v1/openapi.json',
    tag: 'API Access',
    summary: 'OpenAPI 3.1 document',
    description:
      'This API’s machine-readable description. Served as the document itself, without the envelope.',
    response: { document },
    raw: true,
    async handler(ctx) {
      return { body: ctx.openapi() as never };
    },
  }),
  defineRoute({
    id: 'getDocs',
    path: '/v1/docs',
    tag: 'API Access',
    summary: 'OpenAPI document (alias)',
    description: 'The same OpenAPI 3.1 JSON document as /v1/openapi.json.',
    response: { document },
    raw: true,
    async handler(ctx) {
      return { body: ctx.openapi() as never };
    },
  }),
] as const;
