import type { OperationInfo } from './operations.js';

/** What a custom validator is given: the operation, the status and the parsed body. */
export interface ValidationInput {
  operationId: string;
  status: number;
  body: unknown;
}

/**
 * A custom response check (e.g. core's zod schemas or the served OpenAPI document with Ajv, kept out of the
 * client bundle): return a problem description, or null/undefined when the body is fine.
 */
export type ResponseValidator = (input: ValidationInput) => string | null | undefined;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The built-in check, without any schema library: the success envelope (`ok: true`, `meta` with a
 * `requestId`), `pagination` on lists, and the body members the operation answers with.
 * Returns a problem description or null.
 * @example checkEnvelope(operations.getBlock, body) // null, or e.g. 'body.block is missing'
 */
export function checkEnvelope(info: OperationInfo, body: unknown): string | null {
  if (!isObject(body)) return 'the body is not a JSON object';
  if (info.raw) return null;
  if (body.ok !== true) return 'body.ok is not true';
  if (!isObject(body.meta) || typeof body.meta.requestId !== 'string')
    return 'body.meta.requestId is missing';
  if (info.list && (!isObject(body.pagination) || typeof body.pagination.hasMore !== 'boolean'))
    return 'body.pagination is missing';
  for (const m of info.members) if (!(m in body)) return `body.${m} is missing`;
  return null;
}
