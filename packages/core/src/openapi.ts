import { z } from 'zod';
import { ErrorEnvelopeSchema, successEnvelope } from './envelope.js';
import type { AnyRoute, Tag } from './route.js';
import { TAGS } from './route.js';
import { ChainEventSchema } from './schemas/events.js';

/** An OpenAPI 3.1 document (kept loose: it is generated, then validated by tests). */
export type OpenApiDocument = Record<string, unknown> & { openapi: '3.1.0'; paths: Record<string, unknown> };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: a parameter, the cursor or a header is malformed.',
  401: 'Unauthorized: the API key is unknown, revoked or malformed.',
  404: 'Not found.',
  429: 'Rate limited: retry after the number of seconds in Retry-After.',
  500: 'Server error: quote meta.requestId when reporting it.',
  501: 'Not configured: this server does not serve what was asked for (market data without a market-data provider). Retrying does not help; the message says what the operator has to set.',
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
  Mempool: 'The node’s mempool summary, and recommended fee rates computed from it.',
  Labels: 'Known address and pool labels.',
  Events:
    'Live events: new blocks, reorgs, mempool changes and address activity, pushed as Server-Sent Events.',
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

/**
 * Every operation accepts anonymous, API-key and bearer access. No credentials comes first: it is the default,
 * and tools that pick the first alternative (code generators, Swagger UI's try-it-out) then send none.
 */
const security = () => [{}, { ApiKeyHeader: [] }, { BearerAuth: [] }];

/** Bounds zod gives every `z.int()`: not declared by us, they would only say "a JavaScript-safe integer". */
const SAFE_INT_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/**
 * Adjusts every generated schema node: drops the safe-integer bounds zod adds to each integer (Swagger UI
 * turns a minimum of -2^53+1 into the example value), and, unless `closed`, the `additionalProperties: false`
 * zod emits for each object: the contract lets success bodies gain members, so a client must not refuse one it
 * does not know (tests validate against the closed form to catch a misspelled member).
 */
function adjust(closed: boolean) {
  return ({ jsonSchema: js }: { jsonSchema: Record<string, unknown> }) => {
    if (SAFE_INT_BOUNDS.has(js.minimum as number)) delete js.minimum;
    if (SAFE_INT_BOUNDS.has(js.maximum as number)) delete js.maximum;
    if (!closed && js.additionalProperties === false) delete js.additionalProperties;
  };
}

/** JSON Schema keywords the meta of a parameter may declare for the document; see {@link parameters}. */
const DOCUMENTED_KEYWORDS = ['type', 'enum', 'minimum', 'maximum', 'default', 'examples'] as const;

/**
 * The parameters of an operation. A query parameter arrives as text and is parsed from it (so `limit=abc`
 * gets the same message as `limit=0`), but the document shows what it means: a parameter whose zod meta
 * declares a `type` (`.meta({ type: 'integer', minimum: 1, maximum: 100, default: 20 })`) is documented by
 * those keywords alone, not by the string rules it is parsed with.
 */
function parameters(route: AnyRoute): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'path' | 'query', shape: Record<string, z.ZodType> | undefined) => {
    for (const [name, s] of Object.entries(shape ?? {})) {
      let declared: Record<string, unknown> | undefined;
      let examples: unknown;
      const schema = z.toJSONSchema(s, {
        target: 'draft-2020-12',
        io: 'input',
        unrepresentable: 'any',
        override(ctx) {
          const meta = z.globalRegistry.get(ctx.zodSchema) as Record<string, unknown> | undefined;
          if (meta?.type !== undefined) declared ??= meta;
          // zod shows the input side of a transform, without the meta of the transformed schema.
          if (meta?.examples !== undefined) examples ??= meta.examples;
        },
      }) as Record<string, unknown>;
      const { description, $schema: _s, ...rest } = schema;
      const documented = declared
        ? Object.fromEntries(DOCUMENTED_KEYWORDS.filter((k) => k in declared!).map((k) => [k, declared![k]]))
        : rest;
      if (examples !== undefined) documented.examples ??= examples;
      out.push({
        name,
        in: where,
        required: where === 'path' || !s.safeParse(undefined).success,
        description: (description as string | undefined) ?? s.description,
        schema: documented,
      });
    }
  };
  add('path', route.params?.shape);
  add('query', route.query?.shape);
  return out;
}

/** How the document is built. */
export interface OpenApiOptions {
  /**
   * Keep zod's `additionalProperties: false` on response objects. The served document leaves success bodies
   * open, as the contract says; tests validate against the closed form so that a misspelled member fails.
   */
  closed?: boolean;
}

/**
 * Builds the OpenAPI 3.1 document of a route table: every operation with its parameters, its success schema,
 * its declared errors (400, 401, 404 where marked, 429, 500, 503) and the three security alternatives.
 * Success bodies and the objects in them are open (they may gain members); the error envelope is closed.
 * @example const doc = buildOpenApiDocument(v1Routes, 'https://explorer.example')
 */
export function buildOpenApiDocument(
  routes: readonly AnyRoute[],
  serverUrl: string,
  opts: OpenApiOptions = {},
): OpenApiDocument {
  const components: Record<string, unknown> = {};
  // Named schemas (.meta({ id })) become components; everything refers to them.
  const collect = (schema: z.ZodType, closed = opts.closed === true) => {
    const generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'output',
      unrepresentable: 'any',
      override: adjust(closed),
    });
    // Named schemas land in $defs; in the document they live under components.
    const js = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as {
      $defs?: Record<string, unknown>;
    };
    for (const [k, v] of Object.entries(js.$defs ?? {})) components[k] ??= v;
    const { $defs: _d, $schema: _s, ...rest } = js as Record<string, unknown>;
    return rest;
  };
  // The error envelope is exactly what the contract lists: ok, error, and meta with four members.
  const errorSchema = collect(ErrorEnvelopeSchema, true);
  components.ErrorEnvelope ??= errorSchema;
  const errorResponse = (status: number) => ({
    description: ERROR_DESCRIPTIONS[status],
    headers:
      status === 429 || status === 503
        ? {
            ...RATE_HEADERS,
            'Retry-After': {
              description: 'Seconds to wait.',
              schema: { type: 'integer' },
            },
          }
        : RATE_HEADERS,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const success = route.raw
      ? { type: 'object', description: 'An OpenAPI 3.1 document.', additionalProperties: true }
      : route.stream
        ? {
            type: 'string',
            description: route.stream.description,
            // Each event's `data:` is one of these (JSON Schema's contentSchema): named for readers and generators.
            contentSchema: { $ref: '#/components/schemas/ChainEvent' },
          }
        : collect(successEnvelope(route.response, route.list === true));
    // A stream's events are described by their own schema, so clients can generate types for them.
    if (route.stream) collect(ChainEventSchema);
    const statuses = [
      400,
      401,
      ...(route.notFound ? [404] : []),
      429,
      500,
      ...(route.notConfigured ? [501] : []),
      503,
    ];
    paths[route.path] = {
      get: {
        operationId: route.id,
        tags: [route.tag],
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        parameters: parameters(route),
        security: security(),
        responses: {
          200: {
            description: 'Success.',
            headers: RATE_HEADERS,
            content: { [route.stream?.contentType ?? 'application/json']: { schema: success } },
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
        'Read-only, versioned JSON API over indexed chain data: blocks and their certificates, transactions, addresses, miners, pools, mempool, market data and analytics. Lists use cursor pagination; every response carries `meta`.\n\nAuthentication is optional: every operation answers anonymous requests. An API key (`X-API-Key` or `Authorization: Bearer`) only selects a separate, higher rate-limit bucket.\n\nSuccess bodies may gain members in later releases: ignore the ones you do not know.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags: TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    security: security(),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'Optional. An API key selects a separate, higher rate-limit bucket; without one the request is served as anonymous.',
        },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Optional. The same API key as a bearer token (`Authorization: Bearer <API key>`).',
        },
      },
    },
  };
}
