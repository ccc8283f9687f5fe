import type { HandlerOutput, RouteOf } from '@explorer/core';
import { formatSeconds, progressLine } from '@explorer/indexer';
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import { html, raw } from 'hono/html';
import type { ApiHandler } from '../http/app.js';
import { requestIdOf } from '../http/server-envelope.js';

type StatusBody = HandlerOutput<RouteOf<'getStatus'>>;
type BlockRow = HandlerOutput<RouteOf<'listBlocks'>>['blocks'][number];

/** Name and version announced at `/`. */
export interface RootInfo {
  name: string;
  version: string;
}

/** What the front door is built from. */
export interface RootPageOptions {
  api: ApiHandler;
  info: RootInfo;
  /** The caller's address, which the page's own API calls are counted against. */
  clientAddress: (c: Context) => string | null;
  /** The address clients reach this server at (PUBLIC_BASE_URL); default: the origin of each request. */
  publicBaseUrl?: string;
  /** Blocks listed on the page (default 8). */
  blocks?: number;
}

/** One part of the page: what the API answered, or why it could not. */
export type Part<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Everything the HTML page shows. */
export interface RootView {
  info: RootInfo;
  /** Where the caller reached this server, e.g. `http://127.0.0.1:3000`, for the usage examples. */
  origin: string;
  status: Part<StatusBody>;
  blocks: Part<BlockRow[]>;
}

const LINKS = {
  docs: '/docs',
  openapi: '/v1/openapi.json',
  status: '/v1/status',
  blocks: '/v1/blocks',
  search: '/v1/search?q={query}',
} as const;

const DESCRIPTION =
  'Read-only JSON API over an indexed UTXO chain, made for Pearl (PRL) and serving Bitcoin Core and its ' +
  'forks too: blocks (with their proof certificates on Pearl), transactions, addresses, UTXOs, miners, pools, ' +
  'mempool, market data and analytics.';

/**
 * The JSON answer at `/` for programs: name, version and where everything is.
 * @example rootIndex({ name: 'explorer', version: '1.0.0' }, 'http://127.0.0.1:3000').links.openapi // '/v1/openapi.json'
 */
export function rootIndex(info: RootInfo, origin: string) {
  return {
    ...info,
    description: DESCRIPTION,
    docs: LINKS.docs,
    openapi: LINKS.openapi,
    status: LINKS.status,
    links: LINKS,
    sdk: {
      package: '@explorer/client',
      example: `createExplorerClient({ baseUrl: '${origin}' }).blocks.list({ limit: 5 })`,
    },
    cli: { package: '@explorer/cli', example: `explorer --base-url ${origin} blocks --limit 50` },
  };
}

/**
 * Whether the caller prefers a page to JSON: a browser's `Accept` names `text/html` first; a program's
 * (`application/json`, `*\/*`, none at all, curl's) does not.
 * @example app.get('/', (c) => (prefersHtml(c) ? c.html(page) : c.json(index)))
 */
export function prefersHtml(c: Context): boolean {
  const supports = ['application/json', 'text/html'];
  return accepts(c, { header: 'Accept', supports, default: 'application/json' }) === 'text/html';
}

/** Asks the API in process, as the caller; any failure becomes a reason to show instead of the part. */
async function ask<T>(
  opts: RootPageOptions,
  c: Context,
  requestId: string,
  path: string,
  pick: (body: any) => T,
): Promise<{ part: Part<T>; response: Response | null }> {
  const headers = new Headers({ accept: 'application/json', 'x-request-id': requestId });
  // The caller's key, if any, picks its bucket as it would on a direct call.
  for (const name of ['x-api-key', 'authorization']) {
    const value = c.req.header(name);
    if (value) headers.set(name, value);
  }
  try {
    const response = await opts.api.handle(new Request(new URL(path, c.req.url), { headers }), {
      clientAddress: opts.clientAddress(c),
    });
    const body: any = await response
      .clone()
      .json()
      .catch(() => null);
    if (response.ok && body?.ok === true) return { part: { ok: true, value: pick(body) }, response };
    const reason = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`;
    return { part: { ok: false, reason }, response };
  } catch {
    return { part: { ok: false, reason: 'the API did not answer' }, response: null };
  }
}

/**
 * Reads what the page shows through the API itself (`/v1/status` and `/v1/blocks?limit=n`), so the page and
 * the API never disagree and the caller's rate limit applies.
 */
async function loadView(opts: RootPageOptions, c: Context, requestId: string) {
  const limit = opts.blocks ?? 8;
  const [status, blocks] = await Promise.all([
    ask(opts, c, requestId, '/v1/status', (b) => b as StatusBody),
    ask(opts, c, requestId, `/v1/blocks?limit=${limit}`, (b) => b.blocks as BlockRow[]),
  ]);
  const view: RootView = {
    info: opts.info,
    origin: opts.publicBaseUrl ?? new URL(c.req.url).origin,
    status: status.part,
    blocks: blocks.part,
  };
  return { view, counted: blocks.response ?? status.response };
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1d2330}
h1{margin:.2rem 0}h1 small{font-size:.9rem;color:#5b6475;font-weight:normal}
nav a{margin-right:1rem}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.25rem .6rem;border-bottom:1px solid #e3e6ec}
td.num,th.num{text-align:right}code,pre{font:13px/1.4 ui-monospace,monospace}
pre{background:#f4f6f9;padding:.6rem .8rem;overflow-x:auto}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
dt{color:#5b6475}dd{margin:0}.bad{color:#a4262c;font-weight:600}.good{color:#1a7f37;font-weight:600}.syncing{color:#8a5a00;font-weight:600}
`;

const time = (seconds: number) =>
  new Date(seconds * 1000).toISOString().replace('T', ' ').replace('.000Z', ' UTC');
const short = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-10)}`;

function statusSection(part: Part<StatusBody>) {
  if (!part.ok) {
    return html`<p class="bad" id="status-unavailable">Status unavailable: ${part.reason}</p>`;
  }
  const { status, meta } = part.value;
  const { indexer, chain } = status;
  const behind =
    indexer.lagBlocks === null
      ? ''
      : ` (${indexer.lagBlocks} block${indexer.lagBlocks === 1 ? '' : 's'} behind)`;
  // During a sync, its figures as the indexer logs them: height, rate and the ETA.
  const sync = indexer.progress ? `${progressLine(indexer.progress)}${behind}` : `${indexer.state}${behind}`;
  // Not "healthy" while the index has yet to reach the node: a person reading it wants to know it is not done
  // (the API's own word for it, so the page and /v1/status never disagree).
  const catchingUp = status.state === 'syncing';
  const eta = indexer.progress?.etaSeconds;
  const health = !status.healthy
    ? html`<span class="bad">degraded: ${status.degraded.map((d) => `${d} unavailable`).join(', ')}</span>`
    : catchingUp
      ? html`<span class="syncing">syncing${eta == null ? '' : `, ready in about ${formatSeconds(eta)}`}</span>`
      : html`<span class="good">healthy</span>`;
  const nodeHeight =
    status.node.height ?? (meta.nodeHeight !== null && meta.nodeHeight >= 0 ? meta.nodeHeight : null);
  const chainName = chain ? chainLabel(chain) : 'not known yet (no block indexed)';
  return html`<dl>
<dt>Chain</dt><dd id="chain">${chainName}</dd>
<dt>Indexed tip</dt><dd id="indexed-tip">${meta.indexedTip >= 0 ? meta.indexedTip : 'none'}</dd>
<dt>Node height</dt><dd id="node-height">${nodeHeight ?? 'unavailable'}</dd>
<dt>Sync</dt><dd id="sync-state">${sync}</dd>
<dt>Health</dt><dd id="health">${health}</dd>
</dl>`;
}

function blocksSection(part: Part<BlockRow[]>) {
  if (!part.ok)
    return html`<p class="bad" id="blocks-unavailable">Latest blocks unavailable: ${part.reason}</p>`;
  if (part.value.length === 0) return html`<p id="blocks-none">No block indexed yet.</p>`;
  const rows = part.value.map((b) => {
    const miner = b.miner?.label ?? (b.pool && b.pool.id !== 'unknown' ? b.pool.name : '');
    return html`<tr>
<td class="num"><a href="/v1/blocks/${b.height}">${b.height}</a></td>
<td><code title="${b.hash}">${short(b.hash)}</code></td>
<td>${time(b.time)}</td>
<td class="num">${b.txCount}</td>
<td>${miner || '—'}</td>
</tr>`;
  });
  return html`<table id="latest-blocks">
<thead><tr><th class="num">Height</th><th>Hash</th><th>Time</th><th class="num">Txs</th><th>Miner</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

/**
 * The HTML page at `/`: what this is, live status, the latest blocks and how to use the API, SDK and CLI.
 * Self-contained: one inline stylesheet, no script, no external asset; every value is HTML-escaped.
 * @example String(renderRootPage(view)).startsWith('<!doctype html>')
 */
export function renderRootPage(view: RootView): string {
  const { info, origin } = view;
  // The chain this server indexes, once the indexer has asked its node.
  const chain = view.status.ok ? view.status.value.status.chain : null;
  const title = chain
    ? `Explorer API · ${chain.name ?? [chain.units.symbol ?? chain.profile, chain.network].filter(Boolean).join(' ')}`
    : 'Explorer API';
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${raw(STYLE)}</style>
</head>
<body>
<header>
<h1>Explorer API <small id="version">${info.name} ${info.version}</small></h1>
<p>${DESCRIPTION} Lists page with cursors; every answer is a JSON envelope with <code>meta</code>.</p>
<nav><a href="${LINKS.docs}" id="docs-link">API reference</a><a href="${LINKS.openapi}" id="openapi-link">OpenAPI document</a><a href="${LINKS.status}">Status (JSON)</a><a href="${LINKS.blocks}">Blocks (JSON)</a></nav>
</header>
<main>
<section id="status"><h2>Status</h2>
${statusSection(view.status)}
</section>
<section id="blocks"><h2>Latest blocks</h2>
${blocksSection(view.blocks)}
</section>
<section id="use"><h2>Use it</h2>
<h3>HTTP</h3>
<pre><code>curl -s '${origin}/v1/blocks?limit=5'
curl -s '${origin}/v1/search?q=100'</code></pre>
<h3>SDK: <code>@explorer/client</code></h3>
<pre><code>import { createExplorerClient } from '@explorer/client';

const client = createExplorerClient({ baseUrl: '${origin}' });
const { blocks } = await client.blocks.list({ limit: 5 });
for await (const tx of client.txs.list({ limit: 100 }).all({ max: 500 })) console.log(tx.txid);</code></pre>
<h3>CLI: <code>@explorer/cli</code></h3>
<pre><code>explorer --base-url ${origin} blocks --limit 50
explorer --base-url ${origin} txs --all --ndjson</code></pre>
<p>The packages are not published to a registry yet. From a checkout of the repository:
<code>npm run explorer -- --base-url ${origin} blocks --limit 50</code>; to install them, pack them
(<code>npm run tarballs</code>) and
<code>npm install</code> the tarballs together (docs/getting-started.md, "Installing the packages").</p>
</section>
</main>
<footer><p>${info.name} ${info.version} · <a href="${LINKS.docs}">reference</a> · <a href="${LINKS.openapi}">OpenAPI</a></p></footer>
</body>
</html>
`;
  return String(page);
}

/**
 * The handler of `GET /`: the HTML page for browsers, the JSON index for everyone else, `Vary: Accept`.
 * The page never fails: a part the API cannot give (database down, rate limited) says why instead.
 * @example app.get('/', rootHandler({ api, info, clientAddress: (c) => clientAddress(c, { trustProxy }) }))
 */
export function rootHandler(opts: RootPageOptions): (c: Context) => Promise<Response> {
  return async (c) => {
    const requestId = requestIdOf(c.req.raw.headers);
    c.header('x-request-id', requestId);
    c.header('cache-control', 'no-store');
    c.header('vary', 'Accept');
    if (!prefersHtml(c)) return c.json(rootIndex(opts.info, opts.publicBaseUrl ?? new URL(c.req.url).origin));
    const { view, counted } = await loadView(opts, c, requestId);
    // The page's own API calls were counted; their X-RateLimit-* headers tell the caller where it stands
    // (and keep the server from counting the page itself once more).
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      const value = counted?.headers.get(name);
      if (value) c.header(name, value);
    }
    return c.html(renderRootPage(view));
  };
}

/**
 * The chain as the front page names it: the network's name, its unit symbol and the human-readable parts of its
 * addresses, e.g. `Litecoin regtest (tLTC) · rltc, tmweb` or `Pearl mainnet (PRL) · prl`. A chain recorded without
 * a name (a Core fork whose genesis block is not a known one, or an older indexer's record) is named by profile
 * and network, and what is not known is left out: `bitcoin regtest`.
 */
function chainLabel(chain: StatusBody['status']['chain'] & object): string {
  const name = chain.name ?? [chain.profile, chain.network].filter(Boolean).join(' ');
  const unit = chain.units.symbol ? `${name} (${chain.units.symbol})` : name;
  const prefixes = chain.addresses
    ? [chain.addresses.bech32Hrp, chain.addresses.mwebHrp].filter(Boolean).join(', ')
    : '';
  return prefixes ? `${unit} · ${prefixes}` : unit;
}
