const BODY = Symbol.for('explorer.responseBody');
const HEADERS = Symbol.for('explorer.responseHeaders');

/** Response headers as a plain record of lower-case names. */
export type HeaderRecord = Readonly<Record<string, string>>;

/** What a {@link bodyResponse} is built from. */
export interface BodyResponseInit {
  status: number;
  /** Lower-case names; the record is kept as given, so it must not be changed afterwards. */
  headers: HeaderRecord;
}

/**
 * A Response whose body (a string or bytes the handler built, or none) and headers (a plain record) are kept
 * on it, so middleware can read and amend them without draining the body stream or converting headers, and a
 * Node adapter that understands plain records writes them as they are.
 */
export function bodyResponse(
  body: string | Uint8Array<ArrayBuffer> | null,
  init: BodyResponseInit,
): Response {
  const res = new Response(body, { status: init.status, headers: init.headers });
  Object.defineProperty(res, BODY, { value: body });
  Object.defineProperty(res, HEADERS, { value: init.headers });
  return res;
}

/** A {@link bodyResponse} with a string body (or none, for HEAD and 304). */
export function textResponse(body: string | null, init: BodyResponseInit): Response {
  return bodyResponse(body, init);
}

/** The string body a {@link textResponse} was built from; undefined for any other response. */
export function responseText(res: Response): string | undefined {
  const body = (res as unknown as Record<symbol, unknown>)[BODY];
  return typeof body === 'string' ? body : undefined;
}

/**
 * The body and headers a {@link bodyResponse} was built from (body null when it has none); undefined for any
 * other response.
 */
export function responseParts(
  res: Response,
): { body: string | Uint8Array<ArrayBuffer> | null; headers: HeaderRecord } | undefined {
  const r = res as unknown as Record<symbol, unknown>;
  const headers = r[HEADERS] as HeaderRecord | undefined;
  if (headers === undefined) return undefined;
  return { body: r[BODY] as string | Uint8Array<ArrayBuffer> | null, headers };
}
