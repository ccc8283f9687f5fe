import { z } from 'zod';

/** `meta` of every /v1 response. */
export const MetaSchema = z
  .object({
    requestId: z
      .string()
      .describe('Request identifier; quote it when reporting a problem (also in X-Request-Id).'),
    cached: z
      .boolean()
      .optional()
      .describe('Whether the response was served from the in-process cache (success only).'),
    indexedTip: z.int().describe('Highest indexed block height; -1 before the first block is indexed.'),
    indexedTipHash: z
      .string()
      .nullable()
      .optional()
      .describe('Hash of the indexed tip block (success only).'),
    txIndexedTip: z
      .int()
      .optional()
      .describe('Highest block height whose transactions are indexed (success only).'),
    nodeHeight: z
      .int()
      .nullable()
      .describe('Height last reported by the chain node; null when it was never reached.'),
    servedAt: z.string().describe('When the response was produced (ISO 8601, UTC).'),
  })
  .meta({ id: 'Meta' });

/** The meta object as handlers and the envelope builder see it. */
export type Meta = z.infer<typeof MetaSchema>;

/** `pagination` of every list response. */
export const PaginationSchema = z
  .object({
    limit: z.int().min(1).max(100).describe('Page size applied.'),
    cursor: z.string().nullable().describe('Cursor of this request; null on the first page.'),
    nextCursor: z
      .string()
      .optional()
      .describe('Opaque cursor for the next page; absent on the last page (then hasMore is false).'),
    hasMore: z.boolean().describe('Whether another page follows.'),
    offset: z.int().optional().describe('Legacy offset applied, when the request used one.'),
  })
  .meta({ id: 'Pagination' });

/** The pagination object of a list response. */
export type Pagination = z.infer<typeof PaginationSchema>;

/** The error body: `{ ok: false, error, meta }`. */
export const ErrorEnvelopeSchema = z
  .object({
    ok: z.literal(false),
    error: z.string().describe('Human-readable message.'),
    meta: MetaSchema.pick({ requestId: true, indexedTip: true, nodeHeight: true, servedAt: true }),
  })
  .meta({ id: 'ErrorEnvelope' });

/** Builds the error envelope. */
export function errorEnvelope(message: string, meta: Meta): z.infer<typeof ErrorEnvelopeSchema> {
  return {
    ok: false,
    error: message,
    meta: {
      requestId: meta.requestId,
      indexedTip: meta.indexedTip,
      nodeHeight: meta.nodeHeight,
      servedAt: meta.servedAt,
    },
  };
}

/** Wraps a route's body schema in the success envelope `{ ok: true, …, meta }` (plus `pagination` for lists). */
export function successEnvelope<T extends z.ZodRawShape>(shape: T, list: boolean) {
  return z.object({
    ok: z.literal(true),
    ...shape,
    ...(list ? { pagination: PaginationSchema } : {}),
    meta: MetaSchema,
  });
}
