// A browser page that reads the explorer through the SDK. `@explorer/client` is resolved by the import map
// serve.mjs puts in index.html; the API must allow the page's origin (CORS_ORIGIN, `*` by default).
const DEFAULT_API = 'http://127.0.0.1:3000';
const REFRESH_MS = 15_000;

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const apiUrl = params.get('api') ?? DEFAULT_API;
$('api').value = apiUrl;
$('settings').addEventListener('submit', (event) => {
  event.preventDefault();
  location.search = `?api=${encodeURIComponent($('api').value.trim())}`;
});

function showError(message) {
  $('error').textContent = message;
}

function describe(err) {
  // The SDK's ExplorerApiError carries the HTTP status and the request id of the error envelope.
  const parts = [err?.message ?? String(err)];
  if (err?.status) parts.push(`status ${err.status}`);
  if (err?.requestId) parts.push(`request id ${err.requestId}`);
  return parts.join(' · ');
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function renderBlocks(blocks) {
  const rows = blocks.map((b) => {
    const tr = document.createElement('tr');
    tr.append(
      cell(String(b.height)),
      cell(`${b.hash.slice(0, 16)}…`, 'hash'),
      cell(new Date(b.time * 1000).toLocaleString()),
      cell(String(b.txCount)),
      cell(b.pool?.name ?? ''),
    );
    return tr;
  });
  $('blocks').replaceChildren(...rows);
}

function renderStatus(status) {
  const el = $('status');
  el.className = status.healthy ? 'ok' : 'bad';
  const tip = status.indexer.tipHeight;
  const degraded = status.degraded.length ? ` · degraded: ${status.degraded.join(', ')}` : '';
  el.textContent = `${apiUrl} · indexed tip ${tip} · indexer ${status.indexer.state}${degraded}`;
}

async function main() {
  let sdk;
  try {
    sdk = await import('@explorer/client');
  } catch (err) {
    showError(
      `Could not load the SDK bundle (${describe(err)}). Build it: npm --prefix packages/client run build`,
    );
    return;
  }
  if (typeof sdk.createExplorerClient !== 'function') {
    showError(
      'The SDK bundle has no createExplorerClient yet. Build it: npm --prefix packages/client run build',
    );
    return;
  }
  const client = sdk.createExplorerClient({ baseUrl: apiUrl });

  async function refresh() {
    try {
      const [{ status }, { blocks }] = await Promise.all([
        client.status(),
        client.blocks.list({ limit: 10 }),
      ]);
      renderStatus(status);
      renderBlocks(blocks);
      showError('');
    } catch (err) {
      showError(describe(err));
    }
  }
  await refresh();
  setInterval(refresh, REFRESH_MS);
}

main();
