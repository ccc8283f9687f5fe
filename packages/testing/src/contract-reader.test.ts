import { describe, expect, it } from 'vitest';
import { type Answer, contractReader } from './contract-reader.js';
import { createResponseValidator } from './openapi-validator.js';

// A document of one list operation, and pages served from memory: what the reader accepts and what it refuses.
const page = {
  type: 'object',
  properties: {
    items: { type: 'array', items: { type: 'integer' } },
    pagination: {
      type: 'object',
      properties: { hasMore: { type: 'boolean' }, nextCursor: { type: 'string' } },
      required: ['hasMore'],
    },
  },
  required: ['items', 'pagination'],
};
const error = { type: 'object', properties: { ok: { const: false }, error: { type: 'string' } } };
const validator = createResponseValidator({
  openapi: '3.1.0',
  components: { schemas: {} },
  paths: {
    '/v1/items': {
      get: {
        operationId: 'listItems',
        responses: {
          '200': { content: { 'application/json': { schema: page } } },
          '400': { content: { 'application/json': { schema: error } } },
        },
      },
    },
  },
});

/** Serves 1..7 three at a time; `broken` changes what a page says. */
function served(broken: (body: any, cursor: number) => any = (b) => b) {
  const asked: string[] = [];
  const get = async (path: string): Promise<Answer> => {
    asked.push(path);
    const url = new URL(path, 'http://x');
    if (url.searchParams.get('limit') === 'bad')
      return { status: 400, headers: new Headers(), body: { ok: false, error: 'limit: bad' } };
    const from = Number(url.searchParams.get('cursor') ?? 1);
    const items = [from, from + 1, from + 2].filter((n) => n <= 7);
    const more = from + 3 <= 7;
    const body = { items, pagination: { hasMore: more, ...(more ? { nextCursor: String(from + 3) } : {}) } };
    return { status: 200, headers: new Headers(), body: broken(body, from) };
  };
  return { get, asked };
}

describe('contractReader', () => {
  it('follows the cursors to every item, each page checked', async () => {
    const { get, asked } = served();
    const read = contractReader(get, validator);
    expect(await read.all('/v1/items', 'listItems', 'items', 3)).toEqual({
      items: [1, 2, 3, 4, 5, 6, 7],
      pages: 3,
    });
    expect(asked).toEqual(['/v1/items?limit=3', '/v1/items?limit=3&cursor=4', '/v1/items?limit=3&cursor=7']);
  });

  it('refuses a body the document does not describe, a status not expected, and hasMore without a cursor', async () => {
    const stray = contractReader(served((b) => ({ ...b, stray: 1 })).get, validator);
    await expect(stray.get('/v1/items?limit=3', 'listItems')).rejects.toThrow(/not what listItems documents/);
    const read = contractReader(served().get, validator);
    await expect(read.get('/v1/items?limit=bad', 'listItems')).rejects.toThrow(/→ 400, expected 200/);
    expect(await read.get('/v1/items?limit=bad', 'listItems', 400)).toEqual({
      ok: false,
      error: 'limit: bad',
    });
    expect((await read.answer('/v1/items?limit=bad', 'listItems')).status).toBe(400);
    const lying = contractReader(
      served((b, from) => (from === 4 ? { ...b, pagination: { hasMore: true } } : b)).get,
      validator,
    );
    await expect(lying.all('/v1/items', 'listItems', 'items', 3)).rejects.toThrow(
      /hasMore true with nextCursor undefined/,
    );
  });
});
