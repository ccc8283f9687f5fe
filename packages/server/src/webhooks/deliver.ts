import { deadline } from '@explorer/core';
import type { ClaimedDelivery } from '@explorer/db';
import { SERVER_VERSION } from '../version.js';
import { SIGNATURE_HEADER, signWebhookPayload } from './signature.js';

/** How one POST ended: a 2xx answer, or why it is to be tried again. */
export type PostResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/** The cause a network failure is reported with: undici's "fetch failed" says nothing, its cause does. */
function networkProblem(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const text = cause?.code ? `${cause.code}${cause.message ? `: ${cause.message}` : ''}` : cause?.message;
  return (text ?? (err as Error)?.message ?? String(err)).split('\n')[0]!;
}

/**
 * POSTs one delivery, signed now: a 2xx within `timeoutMs` is delivered; any other status, a redirect, a
 * network error or the timeout is a failure to retry. Stopping (`signal`) ends the request at once.
 * @example const result = await postDelivery(claimed, { timeoutMs: 10_000 })
 */
export async function postDelivery(
  delivery: ClaimedDelivery,
  opts: { timeoutMs: number; signal?: AbortSignal; now?: () => number },
): Promise<PostResult> {
  const timestamp = Math.floor((opts.now?.() ?? Date.now()) / 1000);
  const due = deadline(opts.timeoutMs, opts.signal);
  const signal = due.signal;
  try {
    const res = await fetch(delivery.url, {
      method: 'POST',
      body: delivery.body,
      // A redirect is not followed: the receiver's URL is the operator's to change.
      redirect: 'manual',
      signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': `explorer-server/${SERVER_VERSION} webhooks`,
        [SIGNATURE_HEADER]: signWebhookPayload({ secret: delivery.secret, body: delivery.body, timestamp }),
        'Explorer-Event-Id': delivery.eventId,
        'Explorer-Event-Type': delivery.topic,
        'Explorer-Delivery-Attempt': String(delivery.attempt),
        'Explorer-Webhook-Id': delivery.webhookId,
      },
    });
    // The answer's body is not used: release the connection without reading it.
    await res.body?.cancel().catch(() => {});
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    return { ok: false, status: res.status, error: `HTTP ${res.status}` };
  } catch (err) {
    if (opts.signal?.aborted)
      return { ok: false, status: null, error: 'the server stopped before the receiver answered' };
    if (signal.aborted) return { ok: false, status: null, error: `no answer within ${opts.timeoutMs} ms` };
    return { ok: false, status: null, error: networkProblem(err) };
  } finally {
    due.clear();
  }
}
