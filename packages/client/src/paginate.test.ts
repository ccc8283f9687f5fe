import { describe, expect, expectTypeOf, it } from 'vitest';
import { createExplorerClient } from './client.js';
import type { ListRequest } from './explorer-client.js';
import type { PagedRequest } from './paginate.js';
import type { ResponseOf } from './types.js';

/** A client over a fake endless `/v1/blocks`: heights from the cursor on, `limit` rows a page (default 20). */
function endless() {
  const urls: string[] = [];
  const client = createExplorerClient({
    baseUrl: 'http://api.test',
    validate: true,
    fetch: async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      urls.push(url.search);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const blocks = Array.from({ length: limit }, (_, i) => ({ height: start + i }));
      const body = {
        ok: true,
        blocks,
        pagination: { limit, cursor: null, nextCursor: String(start + limit), hasMore: true },
        meta: { requestId: `r${start}` },
      };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, urls };
}

const heights = (blocks: readonly { height: number }[]) => blocks.map((b) => b.height);

describe('PagedRequest with max', () => {
  it('asks only for the items still needed, and cuts nothing it did not have to', async () => {
    const { client, urls } = endless();
    const sizes: number[] = [];
    for await (const page of client.blocks.list({ limit: 3 }).pages({ max: 7 }))
      sizes.push(page.blocks.length);
    expect(sizes).toEqual([3, 3, 1]);
    expect(urls).toEqual(['?limit=3', '?limit=3&cursor=3', '?limit=1&cursor=6']);
    urls.length = 0;
    expect(heights(await client.blocks.list({ limit: 50 }).toArray({ max: 4 }))).toEqual([0, 1, 2, 3]);
    expect(urls).toEqual(['?limit=4']);
  });

  it('takes a page size given as text, as a command line passes it, and leaves anything else to the server', async () => {
    const { client, urls } = endless();
    await client.blocks.list({ limit: '10' }).toArray({ max: 12 });
    expect(urls).toEqual(['?limit=10', '?limit=2&cursor=10']);
    urls.length = 0;
    // Not a whole number: sent as it is, so the server's 400 explains it (the fake one only echoes it).
    await client.blocks.list({ limit: 'abc' }).pages({ max: 1 }).next();
    expect(urls).toEqual(['?limit=abc']);
  });

  it('without a page size in the query, sizes later requests by the pagination.limit of the answers', async () => {
    const { client, urls } = endless();
    expect(heights(await client.blocks.list().toArray({ max: 25 }))).toHaveLength(25);
    expect(urls).toEqual(['', '?cursor=20&limit=5']);
  });

  it('cuts a first page awaited before the walk to max, in .pages() as in .all()', async () => {
    const { client, urls } = endless();
    const request = client.blocks.list({ limit: 10 });
    expect((await request).blocks).toHaveLength(10);
    const pages = [];
    for await (const page of request.pages({ max: 4 })) pages.push(page);
    expect(pages.map((p) => heights(p.blocks))).toEqual([[0, 1, 2, 3]]);
    // The rest of the envelope is kept.
    expect(pages[0]).toMatchObject({ ok: true, pagination: { nextCursor: '10' }, meta: { requestId: 'r0' } });
    expect(heights(await request.toArray({ max: 4 }))).toEqual([0, 1, 2, 3]);
    // The awaited first page was reused each time, and still holds all its items.
    expect(urls).toEqual(['?limit=10']);
    expect((await request).blocks).toHaveLength(10);
  });

  it('does not keep a trimmed first page as the answer of a later await', async () => {
    const { client, urls } = endless();
    const request = client.blocks.list({ limit: 10 });
    await request.toArray({ max: 2 });
    expect((await request).blocks).toHaveLength(10);
    expect(urls).toEqual(['?limit=2', '?limit=10']);
  });

  it('combines max with maxPages, whichever comes first', async () => {
    const { client } = endless();
    const sizes: number[] = [];
    for await (const page of client.blocks.list({ limit: 5 }).pages({ max: 100, maxPages: 2 }))
      sizes.push(page.blocks.length);
    expect(sizes).toEqual([5, 5]);
  });

  it('is a list of its items’ supertypes too (covariant in the item type)', () => {
    expectTypeOf<ListRequest<'listBlocks', 'blocks'>>().toExtend<
      PagedRequest<ResponseOf<'listBlocks'>, unknown>
    >();
  });
});
