import { z } from 'zod';
import { ErrorEnvelopeSchema, successEnvelope } from './envelope.js';
import type { AnyRoute, Tag } from './route.js';
import { TAGS } from './route.js';

/** An OpenAPI 3.1 document (kept loose: it is generated, then validated by tests). */
export type OpenApiDocument = Record<string, unknown> & { openapi: '3.1.0'; paths: Record<string, unknown> };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: a parameter, the cursor or a header is malformed.',
  401: 'Unauthorized: the API key is unknown, revoked or malformed.',
  404: 'Not found.',
  429: 'Rate limited: retry after the number of seconds in Retry-After.',
  500: 'Server error: quote meta.requestId when reporting it.',
  503: 'A dependency (database, chain node) is unavailable or a query timed out: retry after Retry-After seconds.',
};

const TAG_DESCRIPTIONS: Record<Tag, string> = {
  'API Access': 'The OpenAPI document and the caller’s identity and rate-limit bucket.',
  Status: 'Health of the API, the database, the chain node and the indexer.',
  Blocks: 'Blocks by height or hash, their certificates, outputs, transactions and raw JSON.',
  Transactions: 'Transactions by txid: summary, flow, inputs, outputs and raw JSON.',
  Addresses: 'Balances, history, UTXOs and flows of an address.',
  Miners: 'Payout addresses ranked by mined blocks.',
  Pools: 'Mining pools by known label or inferred coinbase tag.',
  Analytics: 'Network, certificate, supply, pool and market-cache figures.',
  Market: 'Cached market data enriched with the chain’s own supply.',
  Search: 'Resolve and suggest heights, hashes, txids, addresses and pools.',
  Mempool: 'The node’s mempool summary.',
  Labels: 'Known address and pool labels.',
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Request limit of the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests remaining in the window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Unix timestamp (seconds) when the window resets.',
    schema: { type: 'integer' },
  },
  'X-Request-Id': {
    description: 'The request identifier (also meta.requestId).',
    schema: { type: 'string' },
  },
};

function parameters(route: AnyRoute): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'path' | 'query', shape: Record<string, z.ZodType> | undefined) => {
    for (const [name, s] of Object.entries(shape ?? {})) {
      const schema = z.toJSONSchema(s, {
        target: 'draft-2020-12',
        io: 'input',
        unrepresentable: 'any',
      }) as Record<string, unknown>;
      const { description, $schema: _s, ...rest } = schema;
      out.push({
        name,
        in: where,
        required: where === 'path' || !s.safeParse(undefined).success,
        description: (description as string | undefined) ?? s.description,
        schema: rest,
      });
    }
  };
  add('path', route.params?.shape);
  add('query', route.query?.shape);
  return out;
}

/**
 * Builds the OpenAPI 3.1 document of a route table: every operation with its parameters, its success schema,
 * its declared errors (400, 401, 404 where marked, 429, 500) and the three security alternatives.
 */
export function buildOpenApiDocument(routes: readonly AnyRoute[], serverUrl: string): OpenApiDocument {
  const components: Record<string, unknown> = {};
  // Named schemas (.meta({ id })) become components; everything refers to them.
  const collect = (schema: z.ZodType) => {
    const generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'output',
      unrepresentable: 'any',
    });
    // Named schemas land in $defs; in the document they live under components.
    const js = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as {
      $defs?: Record<string, unknown>;
    };
    for (const [k, v] of Object.entries(js.$defs ?? {})) components[k] ??= v;
    const { $defs: _d, $schema: _s, ...rest } = js as Record<string, unknown>;
    return rest;
  };
  const errorSchema = collect(ErrorEnvelopeSchema);
  components.ErrorEnvelope ??= errorSchema;
  const errorResponse = (status: number) => ({
    description: ERROR_DESCRIPTIONS[status],
    headers:
      status === 429 || status === 503
        ? { ...RATE_HEADERS, 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } }
        : RATE_HEADERS,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const success = route.raw
      ? { type: 'object', description: 'An OpenAPI 3.1 document.', additionalProperties: true }
      : collect(successEnvelope(route.response, route.list === true));
    const statuses = [400, 401, ...(route.notFound ? [404] : []), 429, 500, 503];
    paths[route.path] = {
      get: {
        operationId: route.id,
        tags: [route.tag],
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        parameters: parameters(route),
        security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, {}],
        responses: {
          200: {
            description: 'Success.',
            headers: RATE_HEADERS,
            content: { 'application/json': { schema: success } },
          },
          ...Object.fromEntries(statuses.map((s) => [String(s), errorResponse(s)])),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Blockchain Explorer Read API',
      version: '1.0.0',
      description:
        'Read-only, versioned JSON API over indexed chain data: blocks and their certificates, transactions, addresses, miners, pools, mempool, market data and analytics. Lists use cursor pagination; every response carries `meta`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags: TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, {}],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'An API key selects a higher rate-limit bucket.',
        },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token.' },
      },
    },
  };
}
