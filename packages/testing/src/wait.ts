/**
 * Polls `probe` until it gives a truthy value (a rejection counts as not yet), every `everyMs`, for at most
 * `ms`; then fails naming `what`.
 * @example const page = await waitFor('the API to recover', async () => (await getJson(url)).status === 200)
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 30_000,
  everyMs = 20,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
