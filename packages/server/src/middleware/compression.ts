import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { amendResponse, partsOf } from './response-parts.js';

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
  const skip = (c: Context, status: number) =>
    c.req.method === 'HEAD' || status === 204 || status === 206 || status === 304;
  const gzipWanted = (c: Context, bytes: number, cacheControl: string | null | undefined) =>
    bytes >= threshold &&
    acceptsGzip(c.req.header('accept-encoding')) &&
    !NO_TRANSFORM.test(cacheControl ?? '');
  const varyWith = (vary: string | null | undefined, bytes: number): Record<string, string> => {
    const varies = vary === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '');
    if (bytes < threshold || varies) return {};
    return { vary: vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding' };
  };
  return async (c, next) => {
    await next();
    const res = c.res;
    // The API's answers come with their parts (body and a plain header record): amended from those, they stay
    // on the adapter's fast path, where draining the body stream or converting the headers would not.
    const parts = partsOf(c);
    if (parts) {
      const h = parts.headers;
      if (h['content-encoding'] !== undefined || parts.body === null || skip(c, res.status)) return;
      if (!COMPRESSIBLE.test(h['content-type'] ?? '')) return;
      const body = parts.body;
      // The API measures the bodies it builds (core's bodyAnswer); others are measured here.
      const length = h['content-length'];
      const bytes =
        length !== undefined
          ? Number(length)
          : typeof body === 'string'
            ? Buffer.byteLength(body)
            : body.byteLength;
      if (!gzipWanted(c, bytes, h['cache-control'])) {
        amendResponse(c, { 'content-length': String(bytes), ...varyWith(h.vary, bytes) });
        return;
      }
      const out = new Uint8Array(await gzipAsync(body));
      const etag = h.etag;
      amendResponse(
        c,
        {
          'content-length': String(out.byteLength),
          ...varyWith(h.vary, bytes),
          'content-encoding': 'gzip',
          // The bytes differ from the uncompressed representation, so a strong validator would lie.
          ...(etag && !etag.startsWith('W/') ? { etag: `W/${etag}` } : {}),
        },
        out,
      );
      return;
    }
    if (res.headers.has('content-encoding')) return;
    if (skip(c, res.status)) return;
    if (!COMPRESSIBLE.test(res.headers.get('content-type') ?? '')) return;
    if (!res.body) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const gzipIt = gzipWanted(c, body.byteLength, res.headers.get('cache-control'));
    const out = gzipIt ? new Uint8Array(await gzipAsync(body)) : body;
    const etag = res.headers.get('etag');
    amendResponse(
      c,
      {
        'content-length': String(out.byteLength),
        ...varyWith(res.headers.get('vary'), body.byteLength),
        ...(gzipIt ? { 'content-encoding': 'gzip' } : {}),
        ...(gzipIt && etag && !etag.startsWith('W/') ? { etag: `W/${etag}` } : {}),
      },
      out,
    );
  };
}
