import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createExplorerApi } from './api/index.js';
import { buildOpenApiDocument } from './openapi.js';
import { v1Routes } from './routes/index.js';
import type { Store } from './store.js';

type Schema = Record<string, any>;
const doc = buildOpenApiDocument(v1Routes, 'http://127.0.0.1:3000') as any;
const closed = buildOpenApiDocument(v1Routes, 'http://127.0.0.1:3000', { closed: true }) as any;
const operations = Object.entries<any>(doc.paths).map(([path, item]) => ({ path, op: item.get }));
const components: Record<string, Schema> = doc.components.schemas;

const resolve = (s: Schema): Schema =>
  typeof s?.$ref === 'string' ? resolve(components[s.$ref.replace('#/components/schemas/', '')]!) : s;

/** Every schema node under `root`, following $refs once each, with the path it was reached by. */
function nodes(root: Schema): { at: string; schema: Schema }[] {
  const out: { at: string; schema: Schema }[] = [];
  const seen = new Set<string>();
  const walk = (s: unknown, at: string) => {
    if (!s || typeof s !== 'object') return;
    if (Array.isArray(s)) {
      s.forEach((x, i) => {
        walk(x, `${at}[${i}]`);
      });
      return;
    }
    const o = s as Schema;
    if (typeof o.$ref === 'string') {
      if (seen.has(o.$ref)) return;
      seen.add(o.$ref);
      return walk(resolve(o), o.$ref);
    }
    out.push({ at, schema: o });
    for (const [k, v] of Object.entries(o)) if (k !== 'examples' && k !== 'default') walk(v, `${at}.${k}`);
  };
  walk(root, '');
  return out;
}

// The event stream's success is text/event-stream: its events are the ChainEvent component, checked below.
const successSchemas = operations
  .filter(({ op }) => op.responses['200'].content['application/json'] !== undefined)
  .map(({ path, op }) => ({
    path,
    schema: op.responses['200'].content['application/json'].schema as Schema,
  }));

/** What Swagger UI does to a number it generates (its applyNumberConstraints, JSON Schema 2020-12 sampler). */
function numberSample(s: Schema): number {
  const min = typeof s.minimum === 'number' ? s.minimum : null;
  const max = typeof s.maximum === 'number' ? s.maximum : null;
  return (min !== null && max !== null && min > max && 0) || min || max || 0;
}

/** The example a renderer generates for a schema: first of examples/default/const/enum, else from the type. */
function sample(input: Schema, depth = 0): unknown {
  const s = resolve(input);
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const branch = s.anyOf ?? s.oneOf;
  if (branch) return sample(branch[0], depth);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'object' || s.properties) {
    if (depth > 12) return {};
    return Object.fromEntries(
      Object.entries<Schema>(s.properties ?? {}).map(([k, v]) => [k, sample(v, depth + 1)]),
    );
  }
  if (type === 'array') return s.items ? [sample(s.items, depth + 1)] : [];
  if (type === 'integer' || type === 'number') return numberSample(s);
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return 'string';
}

describe('the OpenAPI document', () => {
  it('leaves every success body, meta, pagination and nested object open; the error envelope is closed', () => {
    for (const { path, schema } of successSchemas) {
      for (const n of nodes(schema)) {
        expect({ path, at: n.at, additionalProperties: n.schema.additionalProperties }).not.toEqual({
          path,
          at: n.at,
          additionalProperties: false,
        });
      }
    }
    for (const name of ['Meta', 'Pagination', 'Block', 'Tx', 'Pool']) {
      expect(components[name]).not.toHaveProperty('additionalProperties');
      expect(closed.components.schemas[name].additionalProperties).toBe(false);
    }
    const error = components.ErrorEnvelope!;
    expect(error.additionalProperties).toBe(false);
    expect(error.properties.meta.additionalProperties).toBe(false);
    expect(error.properties.meta.required.sort()).toEqual([
      'indexedTip',
      'nodeHeight',
      'requestId',
      'servedAt',
    ]);
    // Open means open: a body with a member the document does not name is valid.
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const getBlock = doc.paths['/v1/blocks/{heightOrHash}'].get.responses['200'].content['application/json'];
    const validate = ajv.compile(
      JSON.parse(JSON.stringify(getBlock.schema).replaceAll('"#/components/', '"doc#/components/')),
    );
    const body = sample(getBlock.schema) as any;
    expect(validate(body)).toBe(true);
    expect(
      validate({ ...body, added: 1, block: { ...body.block, added: 1 }, meta: { ...body.meta, x: 1 } }),
    ).toBe(true);
  });

  it('types meta.indexedTip and meta.nodeHeight as integers on every response, errors included', () => {
    for (const meta of [components.Meta!, components.ErrorEnvelope!.properties.meta]) {
      for (const name of ['indexedTip', 'nodeHeight']) {
        expect(meta.properties[name]).toMatchObject({ type: 'integer', minimum: -1 });
        expect(meta.required).toContain(name);
      }
    }
  });

  it('declares limit, offset, includeProof and days as the integers and booleans they mean', () => {
    const params: Schema[] = operations.flatMap(({ path, op }) =>
      (op.parameters as Schema[]).map((p) => ({ path, ...p })),
    );
    const lists = params.filter((p) => p.name === 'limit' && p.path !== '/v1/search/suggest');
    expect(lists.length).toBeGreaterThanOrEqual(13);
    for (const p of lists) {
      expect(p.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    }
    for (const p of params.filter((q) => q.name === 'offset')) {
      expect(p.schema).toEqual({ type: 'integer', minimum: 0, maximum: 10_000 });
    }
    expect(params.find((p) => p.name === 'includeProof')!.schema).toEqual({
      type: 'boolean',
      default: false,
    });
    expect(params.find((p) => p.name === 'days')!.schema).toEqual({
      type: 'integer',
      enum: [1, 7, 30, 90, 365],
      default: 7,
    });
    expect(params.find((p) => p.path === '/v1/search/suggest' && p.name === 'limit')!.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 10,
      default: 10,
    });
    // What a generated client types each parameter as (openapi-typescript: integer → number, boolean →
    // boolean): no query parameter that means a number or a flag is left a string.
    const tsType = (s: Schema) =>
      s.type === 'integer' || s.type === 'number' ? 'number' : s.type === 'boolean' ? 'boolean' : s.type;
    for (const p of params.filter((q) => q.in === 'query')) {
      if (tsType(p.schema) === 'string') {
        expect({ name: p.name, pattern: p.schema.pattern }).not.toMatchObject({
          pattern: expect.stringMatching(/\\d/),
        });
        // Event ids are decimal strings: a log may outgrow 2^53. A wallet key is text.
        expect([
          'cursor',
          'q',
          'vsCurrency',
          'window',
          'topics',
          'addresses',
          'lastEventId',
          'key',
        ]).toContain(p.name);
      }
    }
    expect(tsType(lists[0]!.schema)).toBe('number');
    expect(tsType(params.find((p) => p.name === 'includeProof')!.schema)).toBe('boolean');
  });

  it('still parses the query text as before: same 400 messages', async () => {
    const api = createExplorerApi({
      store: new Proxy({} as Store, { get: () => () => Promise.reject(new Error('no database')) }),
      routes: v1Routes,
    });
    const error = async (path: string) => {
      const res = await api.handle(new Request(`http://x${path}`));
      return [res.status, ((await res.json()) as { error: string }).error];
    };
    const limit = [400, 'limit must be an integer from 1 to 100'];
    expect(await error('/v1/blocks?limit=0')).toEqual(limit);
    expect(await error('/v1/blocks?limit=abc')).toEqual(limit);
    expect(await error('/v1/blocks?limit=1.5')).toEqual(limit);
    expect(await error('/v1/blocks?limit=101')).toEqual(limit);
    expect(await error('/v1/blocks?offset=-1')).toEqual([400, 'offset must be an integer from 0 to 10000']);
    expect(await error('/v1/blocks/1/certificate?includeProof=yes')).toEqual([
      400,
      'includeProof must be true or false',
    ]);
    expect(await error('/v1/market/chart?days=2')).toEqual([400, 'days must be one of 1, 7, 30, 90, 365']);
    expect(await error('/v1/search/suggest?q=abc&limit=11')).toEqual([
      400,
      'limit must be an integer from 1 to 10',
    ]);
  });

  it('declares 404 exactly on the operations that address one block or transaction', () => {
    const with404 = operations.filter(({ op }) => op.responses['404']).map(({ path }) => path);
    expect(with404.sort()).toEqual(
      [
        '/v1/blocks/{heightOrHash}',
        '/v1/blocks/{heightOrHash}/certificate',
        '/v1/blocks/{heightOrHash}/coinbase-outputs',
        '/v1/blocks/{heightOrHash}/outputs',
        '/v1/blocks/{heightOrHash}/raw',
        '/v1/blocks/{heightOrHash}/txs',
        '/v1/txs/{txid}',
        '/v1/txs/{txid}/flow',
        '/v1/txs/{txid}/inputs',
        '/v1/txs/{txid}/outputs',
        '/v1/txs/{txid}/raw',
        '/v1/txs/{txid}/status',
        '/v1/txs/{txid}/outspends',
      ].sort(),
    );
  });

  it('lists anonymous access first, then the two optional keys, on every operation', () => {
    const alternatives = [{}, { ApiKeyHeader: [] }, { BearerAuth: [] }];
    expect(doc.security).toEqual(alternatives);
    for (const { op } of operations) expect(op.security).toEqual(alternatives);
    for (const scheme of Object.values<Schema>(doc.components.securitySchemes)) {
      expect(scheme.description).toMatch(/^Optional\./);
    }
  });

  it('gives integers real bounds and every generated example a plausible value', () => {
    const all = [
      ...successSchemas.map((s) => ({ path: s.path, schema: s.schema })),
      { path: 'ErrorEnvelope', schema: components.ErrorEnvelope! },
      ...operations.flatMap(({ path, op }) =>
        (op.parameters as Schema[]).map((p) => ({ path, schema: p.schema })),
      ),
    ];
    for (const { path, schema } of all) {
      for (const { at, schema: n } of nodes(schema)) {
        const where = `${path} ${at}`;
        // zod's safe-integer range is no bound of ours; -1 is the one sentinel (a tip not known yet).
        if (typeof n.minimum === 'number') expect(n.minimum, where).toBeGreaterThanOrEqual(-1);
        if (typeof n.maximum === 'number') expect(n.maximum, where).toBeLessThan(2 ** 32);
        if (n.type === 'integer' || (Array.isArray(n.type) && n.type.includes('integer')))
          expect(
            typeof n.minimum === 'number' || Array.isArray(n.examples) || Array.isArray(n.enum),
            where,
          ).toBe(true);
        // Swagger UI shows the string "string" for a string without an example: a pattern would refuse it.
        if (typeof n.pattern === 'string') {
          expect(Array.isArray(n.examples), `${where} has a pattern and no example`).toBe(true);
          for (const e of n.examples) expect(e, where).toMatch(new RegExp(n.pattern));
        }
      }
    }
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const compile = (s: Schema) =>
      ajv.compile(JSON.parse(JSON.stringify(s).replaceAll('"#/components/', '"doc#/components/')));
    const implausible: string[] = [];
    const check = (v: unknown, at: string) => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) check(x, `${at}[${i}]`);
        return;
      }
      if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) check(x, `${at}.${k}`);
        return;
      }
      if (typeof v !== 'number') return;
      if (v < -1 || v >= 2 ** 53 - 1) implausible.push(`${at} = ${v}`);
      // A Unix time before the first Bitcoin block is no time a chain reports.
      if (/(\.time|Time|\.reset)$/.test(at) && v < 1_231_006_505) implausible.push(`${at} = ${v}`);
      if (/(height|Height|Tip)$/.test(at) && v >= 0 && v < 1)
        implausible.push(`${at} = ${v} (a height of 0)`);
    };
    for (const { path, schema } of successSchemas) {
      const body = sample(schema);
      const validate = compile(schema);
      expect({ path, valid: validate(body), errors: validate.errors ?? null }).toEqual({
        path,
        valid: true,
        errors: null,
      });
      check(body, path);
    }
    const error = sample(components.ErrorEnvelope!);
    expect(compile(components.ErrorEnvelope!)(error)).toBe(true);
    check(error, 'ErrorEnvelope');
    for (const { path, op } of operations) {
      for (const p of op.parameters as Schema[]) {
        const value = sample(p.schema);
        expect({ path, name: p.name, valid: compile(p.schema)(value) }).toEqual({
          path,
          name: p.name,
          valid: true,
        });
        check(value, `${path} ${p.name}`);
      }
    }
    expect(implausible).toEqual([]);
  });
});
