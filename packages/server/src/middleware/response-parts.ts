import type { Context } from 'hono';

/**
 * A response as the server builds and amends it: status, a plain record of lower-case header names, and the
 * body (text or bytes, or none). The API's answers (core's `api.answer`) are of this shape. Once answered with
 * ({@link respondWith}), the parts are the server's: middleware amends their header record in place.
 */
export interface ResponseParts {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | null;
  /** A streamed body (live events): sent as it is produced; `body` is null then. */
  stream?: ReadableStream<Uint8Array>;
}

interface Kept {
  /** The Response built from `parts`; they describe `c.res` only while it is still this one. */
  response: Response;
  parts: ResponseParts;
}

declare module 'hono' {
  interface ContextVariableMap {
    responseParts: Kept;
  }
}

/**
 * Answers with a Response built from `parts` and keeps the parts in the request's context, so middleware can
 * read and amend them without draining the body stream or converting headers, and @hono/node-server writes
 * the plain header record as it is. The parts (their header record included) are the server's from then on.
 * @example app.all('*', async (c) => respondWith(c, await api.answer(c.req.raw)))
 */
export function respondWith(c: Context, parts: ResponseParts): Response {
  const response = new Response(parts.stream ?? parts.body, { status: parts.status, headers: parts.headers });
  c.set('responseParts', { response, parts });
  return response;
}

/** The parts `c.res` was built from by {@link respondWith}; undefined for any other response. */
export function partsOf(c: Context): ResponseParts | undefined {
  const kept = c.get('responseParts');
  return kept !== undefined && kept.response === c.res ? kept.parts : undefined;
}

/** A header of the response (lower-case name), read from its parts when it has them. */
export function headerOf(c: Context, name: string): string | null {
  const parts = partsOf(c);
  if (parts) return parts.headers[name] ?? null;
  return c.res.headers.get(name);
}

/** Replaces `c.res` (cleared first: replacing a set response makes Hono rebuild it to merge the old headers). */
export function replaceResponse(c: Context, response: Response): void {
  c.res = undefined;
  c.res = response;
}

/**
 * Gives `c.res` more headers (lower-case names) and, optionally, a new body. A response built from parts has
 * them amended in place and is rebuilt from them; any other response has its headers set in place (and a new
 * body only through a fresh Response).
 */
export function amendResponse(
  c: Context,
  headers: Record<string, string>,
  body?: string | Uint8Array<ArrayBuffer>,
): void {
  const res = c.res;
  const kept = c.get('responseParts');
  if (kept !== undefined && kept.response === res) {
    const { parts } = kept;
    for (const k in headers) parts.headers[k] = headers[k]!;
    if (body !== undefined) {
      parts.body = body;
      parts.stream = undefined;
    }
    kept.response = new Response(parts.stream ?? parts.body, {
      status: parts.status,
      headers: parts.headers,
    });
    replaceResponse(c, kept.response);
    return;
  }
  if (body === undefined) {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return;
  }
  const merged = new Headers(res.headers);
  for (const [k, v] of Object.entries(headers)) merged.set(k, v);
  replaceResponse(c, new Response(body, { status: res.status, headers: merged }));
}
