import type { z } from 'zod';
import { BadRequestError } from '../errors.js';
import type { AnyRoute } from '../route.js';

function formatIssue(issue: z.core.$ZodIssue, where: string): string {
  const name = issue.path.map(String).join('.');
  if (name && issue.message.startsWith(name)) return issue.message;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${where} ${name} is required`;
  return name ? `${name}: ${issue.message}` : issue.message;
}

function parseParams(schema: z.ZodObject | undefined, raw: Record<string, string>, where: string): unknown {
  if (!schema) return {};
  const r = schema.safeParse(raw);
  if (!r.success) throw new BadRequestError(formatIssue(r.error.issues[0]!, where));
  return r.data;
}

function parseQuery(schema: z.ZodObject | undefined, search: URLSearchParams): unknown {
  const allowed = schema ? Object.keys(schema.shape) : [];
  const raw: Record<string, string> = {};
  for (const [k, v] of search) {
    if (!allowed.includes(k)) {
      throw new BadRequestError(
        allowed.length
          ? `unknown query parameter '${k.slice(0, 40)}'; allowed: ${allowed.join(', ')}`
          : `this endpoint takes no query parameters (got '${k.slice(0, 40)}')`,
      );
    }
    if (k in raw) throw new BadRequestError(`query parameter '${k}' is given more than once`);
    raw[k] = v;
  }
  return parseParams(schema, raw, 'query parameter');
}

/**
 * A request's path and query parameters parsed by its route's schemas; throws BadRequestError naming the first
 * problem (an unknown, repeated, missing or malformed parameter).
 * @example validate(route, { heightOrHash: '12' }, new URLSearchParams('limit=5'))
 */
export function validate(
  route: Pick<AnyRoute, 'params' | 'query'>,
  pathParams: Record<string, string>,
  search: URLSearchParams,
): { params: unknown; query: unknown } {
  return {
    params: parseParams(route.params, pathParams, 'path parameter'),
    query: parseQuery(route.query, search),
  };
}
