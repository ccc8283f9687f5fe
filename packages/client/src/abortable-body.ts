/**
 * The body of `res`, ended by `signal`: when it aborts, a read in flight rejects with the signal's reason and
 * the body is cancelled, which lets go of the connection.
 *
 * The request's own signal cannot be trusted to do this for a body read long after the answer came: Node's
 * fetch follows the signal of a Request it is given through a weak reference, so once that Request is
 * garbage-collected (ky builds one per call and keeps it no longer than the call) an abort no longer reaches
 * the body (nodejs/node#55428). A pipe's signal is held by the pipe itself.
 * @example const res = abortableBody(await fetch(url, { signal }), signal)
 */
export function abortableBody(res: Response, signal: AbortSignal): Response {
  if (res.body === null) return res;
  const body = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>(), { signal });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
