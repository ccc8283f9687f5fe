#!/usr/bin/env node
// Serves the dApp page, app.js, the built SDK bundle (packages/client/dist) and the packages that bundle
// imports, on 127.0.0.1. It proxies nothing: the page calls the API directly (the API sends CORS headers).
//
//   node examples/browser-dapp/serve.mjs     # PORT (default 5173), CLIENT_DIST to serve another bundle
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const clientDir = resolve(here, '../../packages/client');
const clientDist = resolve(process.env.CLIENT_DIST ?? join(clientDir, 'dist'));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** Bare module specifiers (`ky`, `@scope/pkg/sub`) the bundle's files import. */
function bareImports(dir) {
  const found = new Set();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir, { recursive: true })) {
    if (!/\.m?js$/.test(name)) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"'./][^"']*)["']/g)) found.add(m[1]);
  }
  return found;
}

/** The package name of a specifier: `ky` → `ky`, `@a/b/c` → `@a/b`. */
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** The folder of an installed package, looked up the way Node does from the client package. */
function packageDir(name) {
  for (let dir = clientDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return null;
  }
}

/** The browser entry of a package: its `exports` for browser/import/default, else module/main. */
function entryOf(pkg) {
  const pick = (e) => {
    if (typeof e === 'string') return e;
    if (!e || typeof e !== 'object') return null;
    if ('.' in e) return pick(e['.']);
    for (const condition of ['browser', 'import', 'default']) if (e[condition]) return pick(e[condition]);
    return null;
  };
  return (pick(pkg.exports) ?? pkg.module ?? pkg.main ?? 'index.js').replace(/^\.\//, '');
}

/** The import map: the SDK at /sdk/, each package it imports at /vendor/<name>/. */
function importMap() {
  const imports = { '@explorer/client': '/sdk/index.js' };
  const vendors = new Map();
  for (const spec of bareImports(clientDist)) {
    const name = packageName(spec);
    if (name.startsWith('node:')) continue;
    const dir = packageDir(name);
    if (!dir) {
      console.warn(`the SDK bundle imports ${name}, which is not installed beside the client`);
      continue;
    }
    vendors.set(name, dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    imports[name] = `/vendor/${name}/${entryOf(pkg)}`;
    imports[`${name}/`] = `/vendor/${name}/`;
  }
  return { map: { imports }, vendors };
}

/** A file under root, or null when the path leaves it or names no file. */
function fileUnder(root, relative) {
  const file = resolve(root, `.${sep}${decodeURIComponent(relative)}`);
  if (file !== root && !file.startsWith(root + sep)) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' });
  res.end(body);
}

const server = createServer((req, res) => {
  try {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only\n');
    if (pathname === '/' || pathname === '/index.html') {
      // Rebuilt per request, so a client rebuilt while this runs is picked up on reload.
      const { map } = importMap();
      const tag = `<script type="importmap">${JSON.stringify(map)}</script>`;
      const html = readFileSync(join(here, 'index.html'), 'utf8').replace('<!-- IMPORT_MAP -->', tag);
      return send(res, 200, TYPES['.html'], html);
    }
    let file = null;
    if (pathname === '/app.js') file = join(here, 'app.js');
    else if (pathname.startsWith('/sdk/')) file = fileUnder(clientDist, pathname.slice('/sdk/'.length));
    else if (pathname.startsWith('/vendor/')) {
      const { vendors } = importMap();
      const name = [...vendors.keys()].find((n) => pathname.startsWith(`/vendor/${n}/`));
      if (name) file = fileUnder(vendors.get(name), pathname.slice(`/vendor/${name}/`.length));
    }
    if (!file) return send(res, 404, 'text/plain', 'not found\n');
    return send(res, 200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  } catch (err) {
    console.error(err);
    return send(res, 500, 'text/plain', 'internal error\n');
  }
});

server.on('error', (err) => {
  const port = process.env.PORT ?? 5173;
  console.error(
    err.code === 'EADDRINUSE'
      ? `cannot listen on 127.0.0.1:${port}: address in use; stop what holds it, or run with PORT=<another port>`
      : `cannot listen on 127.0.0.1:${port}: ${err.message}`,
  );
  process.exit(1);
});

server.listen(Number(process.env.PORT ?? 5173), '127.0.0.1', () => {
  const { port } = server.address();
  if (!existsSync(join(clientDist, 'index.js'))) {
    console.warn(
      `no SDK bundle at ${clientDist}/index.js yet: npm start builds it (or: npm --prefix packages/client run build)`,
    );
  }
  console.log(`dApp on http://127.0.0.1:${port}/ (API: add ?api=<url>, default http://127.0.0.1:3000)`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
