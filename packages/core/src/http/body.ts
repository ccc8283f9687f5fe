const BODY = Symbol.for('explorer.responseBody');

/**
 * A Response whose body is a string the handler built, with that string kept on it so middleware that must
 * see the bytes (compression, Content-Length) can read them without draining the body stream.
 */
export function textResponse(body: string | null, init: ResponseInit): Response {
  const res = new Response(body, init);
  if (body !== null) Object.defineProperty(res, BODY, { value: body });
  return res;
}

/** The body a {@link textResponse} was built from; undefined for any other response. */
export function responseText(res: Response): string | undefined {
  const body = (res as unknown as Record<symbol, unknown>)[BODY];
  return typeof body === 'string' ? body : undefined;
}
