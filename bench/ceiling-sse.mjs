#!/usr/bin/env node
import { once } from 'node:events';
// The live-events ceiling: a bare node:http server broadcasting Server-Sent Events frames to every open
// stream, each frame built once and written to every socket (no database, no hub, no web streams). Frames
// look like the explorer's (`id:`, `event: block`, `data:` a JSON object with `id`, `type`, `at` and padding
// to the size asked for), `at` being the moment the broadcast starts.
// usage: node bench/ceiling-sse.mjs   (prints {"url": …} on stdout when listening on 127.0.0.1)
//   GET  /events                          an event stream (`retry:` and a comment first, as the explorer's)
//   POST /replay {"frames":[{"bytes","afterMs"}…]}  one broadcast per frame, `afterMs` after the first one;
//        answers {"sent","firstId","lastId","seconds","cpuSeconds"} when done
//   POST /flood {"bytes","seconds","batch"}  broadcasts as fast as the streams take them, `batch` frames a
//        turn (default 16), waiting for a stream to drain once 64 frames wait for it, for `seconds`; answers the same
import http from 'node:http';
import { setTimeout as sleep, setImmediate as yieldNow } from 'node:timers/promises';

const streams = new Set();
const WINDOW = 64;
let seq = 0;

/** A frame of `bytes` bytes (at least its fixed part) with the next id and `at` = now. */
function frame(bytes) {
  const id = String(++seq);
  const head = `id: ${id}\nevent: block\ndata: {"id":"${id}","type":"block","at":"${new Date().toISOString()}","data":{"pad":"`;
  const tail = '"}}\n\n';
  return Buffer.from(`${head}${'x'.repeat(Math.max(0, bytes - head.length - tail.length))}${tail}`);
}

/** Writes one frame to every stream; the streams holding more than `limit` unsent bytes. */
function broadcast(buf, limit = Number.POSITIVE_INFINITY) {
  const full = [];
  for (const res of streams) {
    res.write(buf);
    if (res.writableLength > limit) full.push(res);
  }
  return full;
}

const drained = (list) =>
  Promise.all(
    list.map((res) => (res.destroyed ? null : Promise.race([once(res, 'drain'), once(res, 'close')]))),
  );

async function run(plan) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const firstId = seq + 1;
  let sent = 0;
  if (plan.frames) {
    for (const f of plan.frames) {
      const wait = t0 + f.afterMs - performance.now();
      if (wait > 0) await sleep(wait);
      broadcast(frame(f.bytes));
      sent++;
    }
  } else {
    const end = t0 + plan.seconds * 1000;
    const batch = plan.batch ?? 16;
    while (performance.now() < end) {
      // `batch` frames per turn: their writes to one socket go out in one system call, as the explorer's do
      // when several events arrive at once. Up to WINDOW frames may wait for a slow stream (the explorer's
      // maximum-rate phase keeps as many in flight); past that the broadcast waits for it to drain.
      let full = [];
      for (let i = 0; i < batch; i++) full = broadcast(frame(plan.bytes), WINDOW * plan.bytes);
      sent += batch;
      if (full.length > 0) await drained(full);
      else await yieldNow();
    }
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    sent,
    firstId,
    lastId: seq,
    seconds: (performance.now() - t0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

const server = http.createServer(async (req, res) => {
  if (req.method === 'GET' && req.url.startsWith('/events')) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('retry: 2000\n: ceiling\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  if (req.method === 'POST' && (req.url === '/replay' || req.url === '/flood')) {
    let body = '';
    for await (const d of req) body += d;
    const result = await run(JSON.parse(body));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...result, streams: streams.size }));
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => {
  for (const res of streams) res.destroy();
  server.close(() => process.exit(0));
});
