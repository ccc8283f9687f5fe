/** Response headers as a plain record of lower-case names. */
export type HeaderRecord = Readonly<Record<string, string>>;

/**
 * The API's answer to one request, as data: `handle` turns it into a Response; a host adapter can write or
 * amend it (compress it, add headers) without reading a Response back.
 */
export interface ApiAnswer {
  status: number;
  /** Lower-case names; a record of this answer's own, which a host may amend in place. */
  headers: Record<string, string>;
  /** The body text (or bytes: an adapter's raw block); null for HEAD, 204 and 304, and for a stream. */
  body: string | Uint8Array<ArrayBuffer> | null;
  /** A streamed body (`/v1/events`), sent as it is produced. */
  stream?: ReadableStream<Uint8Array>;
}

/**
 * The Response of an answer; its headers stay a plain record, which @hono/node-server writes as is.
 * @example const res = toResponse(await api.answer(request))
 */
export function toResponse(answer: ApiAnswer): Response {
  return new Response(answer.stream ?? answer.body, { status: answer.status, headers: answer.headers });
}
