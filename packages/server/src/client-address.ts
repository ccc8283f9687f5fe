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
