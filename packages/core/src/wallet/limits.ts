// The wallet routes' bounds, in a module of their own: the SDK's types read them without reaching
// @explorer/chain, whose declarations name Node's Buffer.

/** The gap limit: unused addresses in a row that end a branch's discovery (default, bounds). */
export const WALLET_GAP = { default: 20, min: 1, max: 100 } as const;

/**
 * How many addresses discovery may derive on one branch: without an API key, and with one. A wallet whose used
 * addresses (plus the gap) reach further is refused (400), never answered late.
 */
export const WALLET_MAX_DERIVED = { anonymous: 2_000, key: 4_000 } as const;
