import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Logger } from '@explorer/indexer';
import { serverErrorBody } from './server-envelope.js';

// What Node itself would answer, with the reason in our envelope instead of an empty body.
const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'the request headers are too large'],
  HPE_URI_OVERFLOW: [414, 'URI Too Long', 'the request URL is too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'the request took too long to arrive'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Content Too Large', 'the request body is too large'],
};

/**
 * Answers requests Node refuses before any handler runs (headers past maxHeaderSize, malformed HTTP,
 * slow requests) with the JSON error envelope instead of an empty body, then closes the connection.
 * @example attachClientErrorHandler(server, log)
 */
export function attachClientErrorHandler(server: NodeJS.EventEmitter, log: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, message] = ANSWERS[err.code ?? ''] ?? [
      400,
      'Bad Request',
      'the request is not valid HTTP',
    ];
    const requestId = randomUUID();
    const body = serverErrorBody(requestId, message);
    log.info({ requestId, status, code: err.code ?? null }, 'request refused by the HTTP parser');
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
