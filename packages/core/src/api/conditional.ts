import { hash } from 'node:crypto';

/** The weak ETag of a body's members without meta (what stays the same between two answers of one body). */
export function etagOf(text: string): string {
  return `W/"${hash('sha1', text, 'base64url')}"`;
}

/** The validators of a body: its ETag, and how long HTTP caches may keep it (forever once it cannot change). */
export function validators(etag: string, immutable: boolean): Record<string, string> {
  return {
    etag,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
  };
}

/** Whether an If-None-Match header names `etag`: the client's copy is current, and the answer is 304. */
export function notModified(ifNoneMatch: string | null, etag: string): boolean {
  return ifNoneMatch?.split(',').some((t) => t.trim() === etag) ?? false;
}
