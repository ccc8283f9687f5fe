import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { responseText } from '@explorer/core';
import type { MiddlewareHandler } from 'hono';

const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /^\s*(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|javascript|xml)|image\/svg\+xml)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** Options of the compression middleware. */
export interface CompressionOptions {
  /** Smallest body, in bytes, worth compressing (default 1,024). */
  threshold?: number;
}

/** Whether an Accept-Encoding header admits gzip (q > 0, directly or through `*`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name.trim() === 'gzip') return weight > 0;
    if (name.trim() === '*') wildcard = weight > 0;
  }
  return wildcard;
}

/**
 * Gzips compressible bodies above a threshold for clients that accept it, and gives every buffered body a
 * Content-Length. It buffers rather than streams (unlike hono/compress) because Responses built from strings
 * carry no Content-Length, so a streaming threshold never applies, and because the request log wants the
 * bytes actually sent. API bodies are bounded, so buffering is cheap.
 * @example app.use(compression({ threshold: 1024 }))
 */
export function compression(opts: CompressionOptions = {}): MiddlewareHandler {
  const threshold = opts.threshold ?? 1024;
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.headers.has('content-encoding')) return;
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 206 || res.status === 304) return;
    if (!COMPRESSIBLE.test(res.headers.get('content-type') ?? '')) return;
    // The API's responses carry the string they were built from; reading it leaves the response on the
    // adapter's fast path, where draining its stream would not.
    const known = responseText(res);
    if (known === undefined && !res.body) return;
    const body = known !== undefined ? Buffer.from(known) : new Uint8Array(await res.arrayBuffer());
    const vary = res.headers.get('vary');
    const varies = vary === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '');
    const gzipIt =
      body.byteLength >= threshold &&
      acceptsGzip(c.req.header('accept-encoding')) &&
      !NO_TRANSFORM.test(res.headers.get('cache-control') ?? '');
    const out = gzipIt ? new Uint8Array(await gzipAsync(body)) : body;
    const etag = res.headers.get('etag');
    const headers = new Headers(res.headers);
    headers.set('content-length', String(out.byteLength));
    if (body.byteLength >= threshold && !varies)
      headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    if (gzipIt) {
      headers.set('content-encoding', 'gzip');
      // The bytes differ from the uncompressed representation, so a strong validator would lie.
      if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
    }
    // Cleared first: replacing a set response makes Hono rebuild it from its body stream to merge headers,
    // and these headers already are a copy of the old response's.
    c.res = undefined;
    c.res = new Response(out, { status: res.status, headers });
  };
}
