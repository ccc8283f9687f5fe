import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, type Logger, refuseRequest } from '@explorer/core';
import { serverErrorBody } from './server-envelope.js';

/** The app's fetch handler, as the HTTP server calls it. */
export type AppFetch = (request: Request, env: unknown) => Response | Promise<Response>;

// What Node itself would answer, with the reason in our envelope instead of an empty body.
const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'the request headers are too large'],
  HPE_URI_OVERFLOW: [414, 'the request URL is too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request took too long to arrive'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'the request body is too large'],
};

/** Longest wait for the app's answer before the bare envelope is sent instead. */
const APP_WAIT_MS = 2_000;

/** The response as HTTP/1.1 text, closing the connection. */
async function serialize(res: Response): Promise<string> {
  const body = await res.text();
  const head = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? 'Error'}`];
  res.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'connection' && name !== 'transfer-encoding')
      head.push(`${name}: ${value}`);
  });
  head.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/** The answer without the app: the envelope with the tips unknown (-1), no rate-limit headers. */
function bare(status: number, message: string, requestId: string): Response {
  return new Response(serverErrorBody(requestId, message), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': requestId,
      'cache-control': 'no-store',
    },
  });
}

/**
 * Answers requests Node refuses before any handler runs (headers past maxHeaderSize, malformed HTTP, slow
 * requests) with the JSON error envelope instead of an empty body, then closes the connection.
 *
 * Once the app is up (`app()` returns its fetch handler), the refusal goes through it as a stand-in request
 * that the API answers with the refusal's status: the answer then carries the API's `meta` (indexed tip, node
 * height) and the X-RateLimit-* headers of the client's anonymous bucket, and counts against that bucket, like
 * every other answer (past the limit it is a 429). While the server is starting, or when the app does not
 * answer within 2 s, the bare envelope is sent, its tips -1 (not known).
 * @example attachClientErrorHandler(server, log, () => fetchApp)
 */
export function attachClientErrorHandler(
  server: NodeJS.EventEmitter,
  log: Logger,
  app: () => AppFetch | null = () => null,
): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] = ANSWERS[err.code ?? ''] ?? [400, 'the request is not valid HTTP'];
    const requestId = randomUUID();
    log.info({ requestId, status, code: err.code ?? null }, 'request refused by the HTTP parser');
    const answer = async (): Promise<Response> => {
      const fetch = app();
      if (!fetch) return bare(status, message, requestId);
      // The request itself could not be read: a GET with only our request id stands in for it. The socket
      // names the client, for its rate-limit bucket.
      const standIn = refuseRequest(
        new Request('http://refused.invalid/v1/', { headers: { 'x-request-id': requestId } }),
        new ApiError(status, message),
      );
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<Response>((resolve) => {
        timer = setTimeout(() => resolve(bare(status, message, requestId)), APP_WAIT_MS);
      });
      try {
        return await Promise.race([Promise.resolve(fetch(standIn, { incoming: { socket } })), late]);
      } catch (e) {
        log.warn({ requestId, err: e }, 'the app could not answer a refused request');
        return bare(status, message, requestId);
      } finally {
        clearTimeout(timer);
      }
    };
    void answer()
      .then(serialize)
      .then((text) => {
        if (socket.writable) socket.end(text);
        else socket.destroy();
      })
      .catch(() => socket.destroy());
  });
}
