import { listen, type TestServer } from '@explorer/testing';

/**
 * An endless list API whose every page takes `delayMs`: `/v1/blocks` pages of 5 rows with a next cursor.
 * For interrupt tests, where the real fixture answers too fast to be interrupted mid-walk.
 */
export function serveSlowList(delayMs: number): Promise<TestServer> {
  return listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const start = Number(url.searchParams.get('cursor') ?? '0');
    const limit = Number(url.searchParams.get('limit') ?? '5');
    await new Promise((r) => setTimeout(r, delayMs));
    const blocks = Array.from({ length: limit }, (_, i) => ({
      height: start + i,
      hash: 'ab'.repeat(32),
      txCount: 1,
    }));
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        ok: true,
        blocks,
        pagination: { limit, cursor: null, nextCursor: String(start + limit), hasMore: true },
        meta: { requestId: `slow-${start}` },
      }),
    );
  });
}
