#!/usr/bin/env node
// The load generator of bench/events.mjs: plain node:http clients holding Server-Sent Events streams open, one
// socket each, recording every frame's id, its size and its latency (receipt time − the event's `at`, same
// machine clock). Forked by bench/events.mjs with an IPC channel; it answers these messages:
//   { cmd: 'open', base, paths, record }  opens one stream per path; answers { type: 'open', opened, failed }
//                                 once every stream has sent its first bytes (the subscription exists then);
//                                 record: false keeps counts only (frames, gaps between consecutive ids,
//                                 duplicates), for rates too high to keep every frame
//   { cmd: 'progress', id }       answers { type: 'progress', reached, open }: how many streams received `id`
//   { cmd: 'watch', everyMs }     from then on sends { type: 'low', id } every everyMs: the lowest id every
//                                 stream has received (for a generator that keeps a bounded window in flight)
//   { cmd: 'collect' }            answers { type: 'collect', clients } (ids, latencies, closes per stream)
//   { cmd: 'close' }              destroys every socket and exits
import http from 'node:http';

const clients = [];
const now = () => performance.timeOrigin + performance.now();
const AT = '"at":"';
let record = true;

/** One stream's frames: `id:`, `event:` and `data:` lines, frames ended by a blank line. */
function onFrame(c, frame, at) {
  let id = null;
  let type = 'message';
  let data = null;
  for (const line of frame.split('\n')) {
    if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) type = line.slice(7);
    else if (line.startsWith('data: ')) data = line.slice(6);
  }
  if (data === null) return; // the preamble (`retry:` and a comment) and keep-alive comments
  if (type === 'close' || type === 'reset') {
    c.closes.push({ type, data });
    return;
  }
  const n = Number(id);
  c.frames++;
  c.firstId ??= n;
  if (n <= c.lastId) c.dupes++;
  else {
    if (c.lastId > 0 && n > c.lastId + 1) c.gaps += n - c.lastId - 1;
    c.lastId = n;
  }
  if (!record) return;
  c.ids.push(n);
  c.types.push(type);
  c.bytes.push(Buffer.byteLength(frame) + 2);
  // `at` is the ChainEvent's third key, before `data`: the first match is the event's own.
  const k = data.indexOf(AT);
  c.latency.push(k < 0 ? Number.NaN : at - Date.parse(data.slice(k + AT.length, data.indexOf('"', k + 6))));
}

function open(base, path) {
  const c = {
    path,
    status: null,
    error: null,
    ended: false,
    ready: false,
    lastId: 0,
    firstId: null,
    frames: 0,
    gaps: 0,
    dupes: 0,
    ids: [],
    types: [],
    bytes: [],
    latency: [],
    closes: [],
    req: null,
  };
  clients.push(c);
  return new Promise((resolve) => {
    const req = http.get(
      `${base}${path}`,
      { agent: false, headers: { accept: 'text/event-stream' } },
      (res) => {
        c.status = res.statusCode;
        res.setEncoding('utf8');
        let buf = '';
        if (res.statusCode !== 200) {
          res.on('data', (d) => {
            buf += d;
          });
          res.on('end', () => {
            c.error = `${res.statusCode}: ${buf.slice(0, 300)}`;
            resolve(false);
          });
          return;
        }
        res.on('data', (chunk) => {
          const at = now();
          if (!c.ready) {
            c.ready = true;
            resolve(true);
          }
          buf += chunk;
          let end = buf.indexOf('\n\n');
          while (end >= 0) {
            onFrame(c, buf.slice(0, end), at);
            buf = buf.slice(end + 2);
            end = buf.indexOf('\n\n');
          }
        });
        res.on('end', () => {
          c.ended = true;
        });
        res.on('error', () => {
          c.ended = true;
        });
      },
    );
    c.req = req;
    req.on('error', (err) => {
      c.error = c.error ?? err.message;
      c.ended = true;
      resolve(false);
    });
  });
}

process.on('message', async (msg) => {
  if (msg.cmd === 'open') {
    record = msg.record !== false;
    // Opened 50 at a time, so the server's accept queue (and the generator) is not flooded at once.
    const results = [];
    for (let i = 0; i < msg.paths.length; i += 50)
      results.push(...(await Promise.all(msg.paths.slice(i, i + 50).map((p) => open(msg.base, p)))));
    const failed = clients.filter((c) => c.error).map((c) => c.error);
    process.send({ type: 'open', opened: results.filter(Boolean).length, failed: failed.slice(0, 3) });
  } else if (msg.cmd === 'progress') {
    process.send({
      type: 'progress',
      reached: clients.filter((c) => c.lastId >= msg.id).length,
      open: clients.filter((c) => !c.ended).length,
    });
  } else if (msg.cmd === 'watch') {
    const timer = setInterval(() => {
      let low = Number.POSITIVE_INFINITY;
      for (const c of clients) if (!c.ended) low = Math.min(low, c.lastId);
      process.send({ type: 'low', id: Number.isFinite(low) ? low : 0 });
    }, msg.everyMs);
    timer.unref();
  } else if (msg.cmd === 'collect') {
    process.send({
      type: 'collect',
      clients: clients.map((c) => ({
        path: c.path,
        status: c.status,
        error: c.error,
        ended: c.ended,
        dupes: c.dupes,
        frames: c.frames,
        gaps: c.gaps,
        firstId: c.firstId,
        lastId: c.lastId,
        ids: c.ids,
        types: c.types,
        bytes: c.bytes,
        latency: c.latency,
        closes: c.closes,
      })),
    });
  } else if (msg.cmd === 'close') {
    for (const c of clients) c.req?.destroy();
    process.exit(0);
  }
});
