import { z } from 'zod';
import { Count, TipHeight } from './schemas/common.js';

/** `meta` of every /v1 response. */
export const MetaSchema = z
  .object({
    requestId: z
      .string()
      .describe('Request identifier; quote it when reporting a problem (also in X-Request-Id).'),
    cached: z.boolean().describe('Whether the response was served from the in-process cache (success only).'),
    indexedTip: TipHeight.describe('Highest indexed block height; -1 before the first block is indexed.'),
    indexedTipHash: z
      .string()
      .meta({ examples: ['9b1a7f9890f3e8c7af7a63b73cda8fb34da0cc4119d756e31c1fa550d5ced17a'] })
      .nullable()
      .describe('Hash of the indexed tip block; null before the first block (success only).'),
    txIndexedTip: TipHeight.describe('Highest block height whose transactions are indexed (success only).'),
    nodeHeight: TipHeight.describe(
      'Height last reported by the chain node. While the node has not answered since the API started, the indexed tip (the node had at least that many blocks); -1 when neither is known.',
    ),
    servedAt: z
      .string()
      .describe('When the response was produced (ISO 8601, UTC).')
      .meta({ examples: ['2026-11-22T15:04:06.868Z'] }),
  })
  .meta({ id: 'Meta' });

/** The meta of a success answer: every member, always sent. */
export type Meta = z.infer<typeof MetaSchema>;

/** The members of `meta` every answer carries, an error's included (its whole meta). */
export const BaseMetaSchema = MetaSchema.pick({
  requestId: true,
  indexedTip: true,
  nodeHeight: true,
  servedAt: true,
});

/** The meta every answer starts from, and an error's whole meta. */
export type BaseMeta = z.infer<typeof BaseMetaSchema>;

/** `pagination` of every list response. */
export const PaginationSchema = z
  .object({
    limit: z
      .int()
      .min(1)
      .max(100)
      .describe('Page size applied.')
      .meta({ examples: [20] }),
    cursor: z.string().nullable().describe('Cursor of this request; null on the first page.'),
    nextCursor: z
      .string()
      .optional()
      .describe('Opaque cursor for the next page; absent on the last page (then hasMore is false).'),
    hasMore: z.boolean().describe('Whether another page follows.'),
    offset: Count.optional().describe('Legacy offset applied, when the request used one.'),
  })
  .meta({ id: 'Pagination' });

/** The pagination object of a list response. */
export type Pagination = z.infer<typeof PaginationSchema>;

/** The error body: `{ ok: false, error, meta }`. */
export const ErrorEnvelopeSchema = z
  .object({
    ok: z.literal(false),
    error: z.string().describe('Human-readable message.'),
    meta: BaseMetaSchema,
  })
  .meta({ id: 'ErrorEnvelope' });

/** Builds the error envelope. */
export function errorEnvelope(message: string, meta: BaseMeta): z.infer<typeof ErrorEnvelopeSchema> {
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
