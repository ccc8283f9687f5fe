#!/usr/bin/env node
// The serving ceiling: a bare Hono app on @hono/node-server, the same stack the explorer's server mounts,
// answering GET /static/:bytes with a fixed JSON body of that many bytes (built once per size).
// usage: node bench/ceiling-server.mjs   (prints {"url": …} on stdout when listening on 127.0.0.1)
import { createRequire } from 'node:module';

const serverRequire = createRequire(new URL('../packages/server/package.json', import.meta.url));
const { Hono } = await import(serverRequire.resolve('hono'));
const { serve } = await import(serverRequire.resolve('@hono/node-server'));

const bodies = new Map();
const body = (bytes) => {
  let b = bodies.get(bytes);
  if (!b) {
    const shell = JSON.stringify({ ok: true, data: { pad: '' } });
    b = JSON.stringify({ ok: true, data: { pad: 'x'.repeat(Math.max(0, bytes - shell.length)) } });
    bodies.set(bytes, b);
  }
  return b;
};

const app = new Hono();
app.get('/static/:bytes', (c) => {
  const bytes = Math.min(1 << 22, Math.max(0, Number(c.req.param('bytes')) || 0));
  return c.body(body(bytes), 200, { 'content-type': 'application/json; charset=utf-8' });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${info.port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
