import type { ResponseValidator } from './openapi-validator.js';

/** What a GET answered: its status, headers and parsed body. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** GETs a path (with the API in this process, or over HTTP) and gives what it answered. */
export type Getter = (path: string) => Promise<Answer>;

/**
 * GETs a path (with request headers, if any) through an API's `handle` in this process, without a socket.
 * @example const get = apiGetter(api); const { status, body } = await get('/v1/blocks')
 */
export function apiGetter(api: {
  handle(request: Request): Promise<Response>;
}): (path: string, headers?: Record<string, string>) => Promise<Answer> {
  return async (path, headers = {}) => {
    const res = await api.handle(new Request(`http://127.0.0.1${path}`, { headers }));
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
}

/** Reads an API the way the contract tests do: every answer checked against the served OpenAPI document. */
export interface ContractReader {
  /** The answer, once its body matched what `operationId` documents for its status (whatever the status). */
  answer(path: string, operationId: string): Promise<Answer>;
  /** The body, once the answer had `status` (200 unless said) and matched the document. */
  get(path: string, operationId: string, status?: number): Promise<any>;
  /**
   * Every item of a list (the body's `member`), following its cursors `limit` at a time: each page checked as
   * `get` checks it, and `hasMore` true exactly when a next cursor is given.
   */
  all(
    path: string,
    operationId: string,
    member: string,
    limit: number,
  ): Promise<{ items: any[]; pages: number }>;
}

const excerpt = (body: unknown) => JSON.stringify(body)?.slice(0, 300);

/**
 * A reader over `get` that throws, naming the path, on an answer the document does not describe or a status
 * other than the one expected.
 * @example const read = contractReader(fixture.get, validator); const { wallet } = await read.get(`/v1/wallet?key=${key}`, 'getWallet')
 */
export function contractReader(get: Getter, validator: ResponseValidator): ContractReader {
  const reader: ContractReader = {
    async answer(path, operationId) {
      const answer = await get(path);
      const problems = validator.check(operationId, answer.status, answer.body);
      if (problems)
        throw new Error(
          `${path} → ${answer.status}: not what ${operationId} documents: ${problems}; ${excerpt(answer.body)}`,
        );
      return answer;
    },
    async get(path, operationId, status = 200) {
      const answer = await get(path);
      if (answer.status !== status)
        throw new Error(`${path} → ${answer.status}, expected ${status}: ${excerpt(answer.body)}`);
      const problems = validator.check(operationId, answer.status, answer.body);
      if (problems)
        throw new Error(`${path} → ${answer.status}: not what ${operationId} documents: ${problems}`);
      return answer.body;
    },
    async all(path, operationId, member, limit) {
      const items: any[] = [];
      let pages = 0;
      let cursor: string | undefined;
      do {
        const sep = path.includes('?') ? '&' : '?';
        const page = `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const body = await reader.get(page, operationId);
        items.push(...body[member]);
        cursor = body.pagination.nextCursor;
        pages++;
        if (body.pagination.hasMore !== (cursor !== undefined))
          throw new Error(`${page}: hasMore ${body.pagination.hasMore} with nextCursor ${cursor}`);
      } while (cursor);
      return { items, pages };
    },
  };
  return reader;
}
