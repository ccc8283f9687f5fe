import type { z } from 'zod';
import type { ExplorerApi } from './api/index.js';
import type { Meta, Pagination } from './envelope.js';
import { ApiError } from './errors.js';
import type { RouteDefinition } from './route.js';
import type { OperationId, RouteOf } from './routes/index.js';

type QueryInput<Q> = Q extends z.ZodObject ? { [K in keyof z.input<Q>]?: string | number | boolean } : never;

/** What a handler function takes: path parameters (required when the path has any) and query parameters. */
export type HandlerInput<R> =
  R extends RouteDefinition<infer P, infer Q, z.ZodRawShape, string>
    ? (P extends z.ZodObject ? { params: z.input<P> } : { params?: undefined }) &
        (Q extends z.ZodObject ? { query?: QueryInput<Q> } : { query?: undefined })
    : never;

/** What a handler function returns: the success envelope of its route. */
export type HandlerOutput<R> =
  R extends RouteDefinition<z.ZodObject | undefined, z.ZodObject | undefined, infer S, string>
    ? { ok: true; meta: Meta } & (R extends { list?: true } ? { pagination: Pagination } : unknown) &
        z.output<z.ZodObject<S>>
    : never;

/** One typed function per operation id. */
export type Handlers = {
  [K in OperationId]: (input: HandlerInput<RouteOf<K>>) => Promise<HandlerOutput<RouteOf<K>>>;
};

/**
 * Typed functions for every operation, for callers that want the data without an HTTP server: each runs the
 * request through the API in process (validation, envelope, caching) and returns the success body, or throws
 * an ApiError with the status and message of the error envelope.
 * @example const { block } = await createHandlers(api).getBlock({ params: { heightOrHash: '812345' } })
 */
export function createHandlers(api: ExplorerApi): Handlers {
  const out: Record<
    string,
    (input?: { params?: Record<string, unknown>; query?: Record<string, unknown> }) => Promise<unknown>
  > = {};
  for (const route of api.routes) {
    out[route.id] = async (input = {}) => {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(String(input.params?.[name] ?? '')),
      );
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query.set(k, String(v));
      const search = query.size > 0 ? `?${query}` : '';
      const res = await api.handle(new Request(`http://embedded${path}${search}`));
      const body = (await res.json()) as { ok?: boolean; error?: string };
      if (res.status !== 200) throw new ApiError(res.status, body.error ?? `HTTP ${res.status}`);
      return body;
    };
  }
  return out as unknown as Handlers;
}
