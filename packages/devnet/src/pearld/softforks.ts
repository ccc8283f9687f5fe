/** The BIP9 window of the deployments pearld reports (its simnet answer moves from `defined` to `started` at 100). */
const WINDOW = 100;

/** An unset deployment time, as btcd prints Go's zero time in Unix seconds. */
const ZERO_TIME = -62135596800;

/**
 * pearld's `bip9_softforks` of getblockchaininfo: the three test deployments its chains carry, with the state
 * the block after `height` will be in.
 */
export function bip9Softforks(height: number): Record<string, Record<string, unknown>> {
  const next = height + 1 >= WINDOW ? 'started' : 'defined';
  const deployment = (status: string, bit: number, minActivationHeight: number) => ({
    status,
    bit,
    startTime: 0,
    start_time: ZERO_TIME,
    timeout: ZERO_TIME,
    since: 0,
    min_activation_height: minActivationHeight,
  });
  return {
    dummy: deployment(next, 28, 0),
    'dummy-always-active': deployment('active', 29, 0),
    'dummy-min-activation': deployment(next, 22, 600),
  };
}
