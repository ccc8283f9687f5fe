import { rateLimitHeaders } from '../access/rate-limit.js';
import type { AdapterBody, Protocol } from '../adapters/adapter.js';
import { type BaseMeta, errorEnvelope, type Meta } from '../envelope.js';
import type { ApiError } from '../errors.js';
import type { RateLimitState } from '../route.js';
import type { TipInfo } from '../store.js';
import type { ApiAnswer } from './answer.js';
import { notModified, validators } from './conditional.js';
import type { RenderedBody } from './render.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** What every answer to one request shares: its id, CORS, HEAD (no body) and the caller's bucket once counted. */
export interface Reply {
  requestId: string;
  /** The CORS headers of every answer (cors.ts's corsHeaders, made once per API). */
  cors: Readonly<Record<string, string>>;
  head: boolean;
  rateLimit: RateLimitState | null;
}

let isoAt = Number.NaN;
let iso = '';
/** `now` as ISO 8601; the requests of one millisecond share the string. */
function isoString(now: number): string {
  if (now !== isoAt) {
    iso = new Date(now).toISOString();
    isoAt = now;
  }
  return iso;
}

/** The meta every answer starts from: the request id, the tips read for it and when it was served. */
export function startMeta(
  requestId: string,
  tip: TipInfo | null,
  nodeHeight: number | null,
  now: number,
): BaseMeta {
  return {
    requestId,
    indexedTip: tip?.height ?? -1,
    // Until the node first answers, the indexed tip: the node had at least the blocks the index holds.
    nodeHeight: nodeHeight ?? tip?.height ?? -1,
    servedAt: isoString(now),
  };
}

/**
 * The meta of a success answer, its members in the order the envelope has always listed them: `cached` says
 * whether the body was rendered by another request.
 */
export function successMeta(meta: BaseMeta, cached: boolean, tip: TipInfo | null): Meta {
  return {
    requestId: meta.requestId,
    indexedTip: meta.indexedTip,
    nodeHeight: meta.nodeHeight,
    servedAt: meta.servedAt,
    cached,
    indexedTipHash: tip?.hash ?? null,
    txIndexedTip: tip?.txHeight ?? -1,
  };
}

/** Headers of an answer: content type, request id, CORS, X-RateLimit-* once counted, then `extra`. */
function headersOf(
  reply: Reply,
  extra: Record<string, string>,
  contentType: string | null = JSON_TYPE,
): Record<string, string> {
  const h: Record<string, string> = {};
  if (contentType !== null) h['content-type'] = contentType;
  h['x-request-id'] = reply.requestId;
  for (const k in reply.cors) h[k] = reply.cors[k]!;
  if (reply.rateLimit) Object.assign(h, rateLimitHeaders(reply.rateLimit));
  for (const k in extra) h[k.toLowerCase()] = extra[k]!;
  return h;
}

/** A body as it is sent, or none for HEAD. */
const bodyOf = (reply: Reply, text: string): string | null => (reply.head ? null : text);

/** The answer of a raw route (the OpenAPI document): its body as is, cacheable for five minutes. */
export function rawAnswer(reply: Reply, body: unknown): ApiAnswer {
  return {
    status: 200,
    headers: headersOf(reply, { 'cache-control': 'public, max-age=300' }),
    body: bodyOf(reply, JSON.stringify(body)),
  };
}

/**
 * The answer of a stream route: its stream, never cached nor buffered by proxies (none for HEAD: the stream is
 * cancelled, which ends its subscription).
 */
export function streamAnswer(
  reply: Reply,
  contentType: string,
  stream: ReadableStream<Uint8Array> | undefined,
): ApiAnswer {
  const headers = headersOf(
    reply,
    { 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
    `${contentType}; charset=utf-8`,
  );
  if (reply.head || !stream) {
    stream?.cancel().catch(() => {});
    return { status: 200, headers, body: null };
  }
  return { status: 200, headers, body: null, stream };
}

/**
 * The answer of a rendered body: 304 when the client's If-None-Match names its ETag, else the success
 * envelope `{ ok: true, …, meta }` with the body's validators and length. Only meta is serialised here: the
 * rest of the envelope and the ETag were made once, when the body was rendered.
 */
export function bodyAnswer(
  reply: Reply,
  ifNoneMatch: string | null,
  rendered: RenderedBody,
  meta: Meta,
): ApiAnswer {
  const cache = validators(rendered.etag, rendered.immutable);
  if (notModified(ifNoneMatch, rendered.etag))
    return { status: 304, headers: headersOf(reply, cache, null), body: null };
  if (reply.head) return { status: 200, headers: headersOf(reply, cache), body: null };
  const tail = `${JSON.stringify(meta)}}`;
  const headers = headersOf(reply, cache);
  headers['content-length'] = String(rendered.headBytes + Buffer.byteLength(tail));
  return { status: 200, headers, body: rendered.head + tail };
}

/** The error envelope `{ ok: false, error, meta }` with the error's status and headers, never cached. */
export function errorAnswer(reply: Reply, error: ApiError, meta: BaseMeta): ApiAnswer {
  return {
    status: error.status,
    headers: headersOf(reply, { ...error.headers, 'cache-control': 'no-store' }),
    body: bodyOf(reply, JSON.stringify(errorEnvelope(error.message, meta))),
  };
}

/** The answer of an adapter route: its body as the protocol writes it (none for HEAD). */
export function adapterAnswer(reply: Reply, answer: AdapterBody): ApiAnswer {
  return {
    status: answer.status ?? 200,
    headers: headersOf(reply, { 'cache-control': answer.cacheControl ?? 'no-cache' }, answer.contentType),
    body: reply.head ? null : answer.body,
  };
}

/** An error as a protocol adapter answers it, with the error's status and headers, never cached. */
export function protocolErrorAnswer(reply: Reply, protocol: Protocol, error: ApiError): ApiAnswer {
  const { contentType, body } = protocol.error(error);
  return {
    status: error.status,
    headers: headersOf(reply, { ...error.headers, 'cache-control': 'no-store' }, contentType),
    body: bodyOf(reply, body),
  };
}
