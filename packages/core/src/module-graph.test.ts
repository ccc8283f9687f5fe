import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));

/** Every source module of this package with the modules of it that it imports (types included). */
function moduleGraph(): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(root, f));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/from '(\.[^']+)'/g)]
      .map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')))
      .filter((d) => known.has(d));
    graph.set(file, deps);
  }
  return graph;
}

/** The import cycles of a graph (its strongly connected components of more than one module). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(root, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the modules of @explorer/core', () => {
  it('import one another one way: no module reaches itself through its imports', () => {
    const graph = moduleGraph();
    expect(graph.size).toBeGreaterThan(50);
    // The Store names the cursor keys of its lists, which sit below both it and the routes.
    expect(graph.get(join(root, 'store.ts'))).toContain(join(root, 'pagination/keys.ts'));
    expect(cycles(graph)).toEqual([]);
  });
});
