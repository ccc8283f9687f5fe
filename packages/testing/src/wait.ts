/**
 * The least a wait allows before it fails: waits follow progress, and on a machine whose cores are busy with
 * other work progress can be many times slower than on an idle one. A wait that ends sooner ends sooner.
 */
const MIN_PATIENCE_MS = 180_000;

/**
 * Polls `probe` until it gives a truthy value (a rejection counts as not yet), every `everyMs`, for at most
 * `ms` (at least three minutes); then fails naming `what`.
 * @example const page = await waitFor('the API to recover', async () => (await getJson(url)).status === 200)
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = MIN_PATIENCE_MS,
  everyMs = 20,
): Promise<T> {
  const end = Date.now() + Math.max(ms, MIN_PATIENCE_MS);
  for (;;) {
    const v = await probe().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
