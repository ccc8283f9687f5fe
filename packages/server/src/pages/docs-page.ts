import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SharedCache } from '@explorer/core';
import { Hono } from 'hono';
import { requestIdOf } from '../http/server-envelope.js';

/** How the reference page is built. */
export interface DocsPageOptions {
  /** The OpenAPI document the page renders (default `/v1/openapi.json`). */
  openapiUrl?: string;
  /** Page title (default `Explorer API reference`). */
  title?: string;
}

/** Files served from the installed swagger-ui-dist package, with their content types. */
const SWAGGER_ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The folder of the installed swagger-ui-dist package; resolved from here so it works from src and dist. */
function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/**
 * The rendered API reference: `GET /docs` is an HTML page running Swagger UI over the served OpenAPI
 * document, with Swagger UI's files served from the local package under `/docs/assets/` (no CDN, so the page
 * works offline and under a strict CSP: no inline script). Mount it at `/docs`.
 * @example app.route('/docs', createDocsPage())
 */
export function createDocsPage(opts: DocsPageOptions = {}): Hono {
  const openapiUrl = opts.openapiUrl ?? '/v1/openapi.json';
  const title = opts.title ?? 'Explorer API reference';
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi-url="${escapeHtml(openapiUrl)}"></div>
<noscript>This page needs JavaScript. The reference itself is <a href="${escapeHtml(openapiUrl)}">${escapeHtml(openapiUrl)}</a>.</noscript>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs-init.js"></script>
</body>
</html>
`;
  // Every operation lists anonymous access ({}) beside the two keys. Swagger UI counts {} as satisfied, so it
  // draws a closed padlock ("authorization button locked") on every operation, which reads as "a key is
  // required". The plugin draws an open padlock labelled optional instead, closed once a key is entered.
  const init = `function OptionalAuthPlugin(system) {
  var h = system.React.createElement;
  return {
    components: {
      authorizeOperationBtn: function (props) {
        var keyGiven = props.authSelectors.authorized().size > 0;
        var Icon = props.getComponent(keyGiven ? 'LockAuthOperationIcon' : 'UnlockAuthOperationIcon', true);
        var label = keyGiven
          ? 'authorization: your API key is sent'
          : 'authorization optional: anonymous access is allowed, an API key raises the rate limit';
        return h(
          'button',
          {
            className: 'authorization__btn',
            'aria-label': label,
            title: label,
            onClick: function (e) {
              e.stopPropagation();
              if (props.onClick) props.onClick();
            },
          },
          h(Icon, { className: keyGiven ? 'locked' : 'unlocked' }),
        );
      },
    },
  };
}
window.addEventListener('load', function () {
  var el = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: el.getAttribute('data-openapi-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [OptionalAuthPlugin],
    layout: 'BaseLayout',
  });
});
`;
  // Read once, on first use: the bundle is about 1.5 MB and never changes while the process runs.
  const files = new SharedCache<Buffer>({ maxEntries: Object.keys(SWAGGER_ASSETS).length });
  const asset = (name: string) => files.load(name, 0, () => readFile(join(swaggerUiDir(), name))).value;

  const docs = new Hono();
  docs.get('/', (c) => {
    c.header('x-request-id', requestIdOf(c.req.raw.headers));
    c.header('cache-control', 'public, max-age=300');
    return c.html(page);
  });
  // One route for every asset: a static path beside a parameter at the same depth would keep Hono from its
  // fastest router (RegExpRouter) for the whole app, API requests included.
  docs.get('/assets/:name', async (c) => {
    const name = c.req.param('name');
    if (name === 'docs-init.js') {
      c.header('cache-control', 'public, max-age=300');
      return c.body(init, 200, { 'content-type': 'text/javascript; charset=utf-8' });
    }
    const type = SWAGGER_ASSETS[name];
    if (!type) return c.text('not found', 404);
    const body = await asset(name);
    c.header('cache-control', 'public, max-age=86400');
    return c.body(new Uint8Array(body), 200, { 'content-type': type });
  });
  return docs;
}
