import { bodyResponse, responseParts } from '@explorer/core';
import type { Context } from 'hono';

/** A header of a response (lower-case name), read from its plain record when it carries one. */
export function headerOf(res: Response, name: string): string | null {
  const parts = responseParts(res);
  if (parts) return parts.headers[name] ?? null;
  return res.headers.get(name);
}

/**
 * Gives `c.res` more headers (lower-case names) and, optionally, a new body. A response the API built from a
 * string (core's bodyResponse) is rebuilt from its parts, which keeps it a plain record the Node adapter writes
 * as is; any other response has its headers set in place (and a new body only through a fresh Response).
 */
export function amendResponse(
  c: Context,
  headers: Record<string, string>,
  body?: string | Uint8Array<ArrayBuffer>,
): void {
  const res = c.res;
  const parts = responseParts(res);
  if (parts) {
    const next = bodyResponse(body === undefined ? parts.body : body, {
      status: res.status,
      headers: { ...parts.headers, ...headers },
    });
    // Cleared first: replacing a set response makes Hono rebuild it from its body stream to merge headers.
    c.res = undefined;
    c.res = next;
    return;
  }
  if (body === undefined) {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return;
  }
  const merged = new Headers(res.headers);
  for (const [k, v] of Object.entries(headers)) merged.set(k, v);
  c.res = undefined;
  c.res = new Response(body, { status: res.status, headers: merged });
}
