import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { createDemoProvider, createMarketRefresher } from '@explorer/indexer';
import { createResponseValidator, type ResponseValidator } from '@explorer/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** Strings a hostile or careless client sends. */
const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    "' OR 1=1--",
    '%00',
    '../../etc/passwd',
    '-1',
    '1e309',
    '9'.repeat(40),
    'NaN',
    '[]',
    '{}',
    ' ',
  ),
  fc.integer({ min: -1_000_000, max: 4_000_000_000 }).map(String),
  fc.stringMatching(/^[0-9a-f]{60,70}$/),
);

describe('property-based contract fuzzing over the served OpenAPI document (pglite)', () => {
  let f: ChainFixture;
  let doc: any;
  let validator: ResponseValidator;
  let valid: Record<string, string[]>;

  beforeAll(async () => {
    f = await createChainFixture('pglite', { seed: 'fuzz', blocks: 60, txPerBlock: 5 });
    const market = createMarketRefresher({
      sql: f.db.sql,
      provider: createDemoProvider(),
      vsCurrencies: ['usd'],
    });
    expect((await market.refreshOnce()).ok).toBe(true);
    doc = (await f.get('/v1/openapi.json')).body;
    validator = createResponseValidator(doc);
    const tip = f.devnet.height();
    const block = await f.node.call<any>('getblock', [await f.node.call('getblockhash', [tip - 3]), 2]);
    const truth = f.devnet.truth();
    valid = {
      heightOrHash: [String(tip - 3), block.hash, '0', String(tip)],
      txid: (block.rawtx ?? block.tx).map((t: any) => t.txid),
      address: [...truth.busyAddresses, Object.keys(truth.blocksByMiner)[0]!],
      poolId: Object.keys(truth.blocksByPool),
    };
  });
  afterAll(async () => {
    await f?.close();
  });

  it(`answers ${RUNS} generated requests per operation within the contract`, async () => {
    // The event stream answers with a stream that does not end, not one JSON document; its refusals and frames
    // are tested in src/events/.
    const operations = Object.entries<any>(doc.paths)
      .map(([path, item]) => ({ path, op: item.get }))
      .filter(({ op }) => op.responses['200'].content['application/json'] !== undefined);
    let requests = 0;
    for (const { path, op } of operations) {
      const params: any[] = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const pathValue = (name: string) => fc.oneof(fc.constantFrom(...(valid[name] ?? ['x'])), hostile);
      const queryValue = (p: any) => {
        const enumValues: unknown[] =
          p.schema?.enum ?? p.schema?.anyOf?.flatMap((s: any) => s.enum ?? []) ?? [];
        return fc.option(
          fc.oneof(
            ...(enumValues.length ? [fc.constantFrom(...enumValues.map(String))] : []),
            fc.integer({ min: -5, max: 120 }).map(String),
            fc.constantFrom('true', 'false', '7', 'usd'),
            hostile,
          ),
          { nil: undefined },
        );
      };
      const request = fc.record({
        path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name)]))),
        query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p)]))),
        extra: fc.option(fc.constantFrom('junk=1', 'limit=1&limit=2'), { nil: undefined, freq: 8 }),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ path: pv, query, extra }) => {
          const url = path.replace(/\{(\w+)\}/g, (_, n: string) =>
            encodeURIComponent((pv as Record<string, string>)[n] ?? ''),
          );
          const qs = new URLSearchParams();
          for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, v as string);
          const search = [qs.toString(), extra].filter(Boolean).join('&');
          const res = await f.get(search ? `${url}?${search}` : url);
          requests++;
          expect(res.status, `${url}?${search}`).toBeLessThan(500);
          if (op.operationId === 'getOpenApiDocument' || op.operationId === 'getDocs') return;
          if (res.status === 404 && !op.responses['404']) {
            // An encoded slash in a path parameter leaves the route table: the generic unknown-path envelope.
            expect(res.body).toMatchObject({ ok: false, error: expect.stringMatching(/no such endpoint/) });
            return;
          }
          expect(
            validator.check(op.operationId, res.status, res.body),
            `${url}?${search} → ${res.status}`,
          ).toBeNull();
          if (res.status >= 400) expect(res.body).toMatchObject({ ok: false, error: expect.any(String) });
        }),
        { numRuns: RUNS, seed: 20_261_122 },
      );
    }
    console.log(`[fuzz] ${requests} generated requests over ${operations.length} operations, no 5xx`);
    expect(requests).toBe(RUNS * operations.length);
  });
});
