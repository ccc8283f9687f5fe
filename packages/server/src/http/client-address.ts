import type { IncomingMessage } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The caller's address: the socket's peer, or — only when a trusted proxy sits in front — the left-most
 * X-Forwarded-For entry. Without trustProxy the header is ignored, since any client can forge it.
 * @example const ip = clientAddress(c, { trustProxy: false })
 */
export function clientAddress(c: Context, opts: { trustProxy: boolean }): string | null {
  if (opts.trustProxy) {
    const first = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    // Not served by @hono/node-server (app.request in tests, other hosts): no socket to ask.
    return null;
  }
}

/**
 * The caller's address of a raw Node request (a WebSocket upgrade), by the same rule as {@link clientAddress}.
 * @example const ip = upgradeClientAddress(req, { trustProxy: false })
 */
export function upgradeClientAddress(req: IncomingMessage, opts: { trustProxy: boolean }): string | null {
  if (opts.trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  return req.socket.remoteAddress ?? null;
}
