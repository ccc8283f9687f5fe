import { readFileSync } from 'node:fs';
import { buildOpenApiDocument, v1Routes } from '@explorer/core';
import { describe, expect, it } from 'vitest';

// docs/api.md's endpoint table is what a reader scans first: it must name every path the API serves, and
// nothing else. `…/x` abbreviates the row's last full path followed by `/x`; `[?…]` and `?…` are examples.
function pathsInGuide(): string[] {
  const guide = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const table = guide.slice(
    guide.indexOf('## Endpoints'),
    guide.indexOf('\n## ', guide.indexOf('## Endpoints') + 1),
  );
  const paths: string[] = [];
  for (const row of table.split('\n').filter((l) => l.startsWith('| '))) {
    let base = '';
    for (const [, token] of row.matchAll(/`([^`]+)`/g)) {
      const path = (token as string).replace(/\[?\?.*$/, '');
      if (path.startsWith('/v1') || path.startsWith('/api/')) {
        base = path;
        paths.push(path);
      } else if (path.startsWith('…/')) {
        paths.push(`${base}${path.slice(1)}`);
      }
    }
  }
  return paths;
}

describe('docs/api.md', () => {
  it('lists every path of the OpenAPI document in its endpoint table, and no other', () => {
    const doc = buildOpenApiDocument(v1Routes, 'http://127.0.0.1:3000');
    expect(pathsInGuide().sort()).toEqual(Object.keys(doc.paths).sort());
  });
});
