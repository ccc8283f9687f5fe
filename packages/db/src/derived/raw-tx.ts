import { type CoreOutputNames, decodeTx, renderCoreTx } from '@explorer/chain';

/**
 * What `txs.raw` holds for a Core transaction kept as its bytes (`raw_bytes`): how that node writes its JSON,
 * so that the JSON is rendered from the bytes, the outputs' stored names and the stored fee on read.
 */
export interface CoreRawRecipe {
  render: 'core';
  /**
   * The renderer's version. A change to what `renderCoreTx` writes is a new version (with the old one kept for
   * the rows written by it), so that rows already stored keep being served as their node wrote them.
   */
  v: 1;
  /** `reqSigs` and an `addresses` list (Core ≤ 0.21, Litecoin Core), else one `address`. */
  legacyAddresses: boolean;
  /** Whether the node writes the transaction's `fee`. */
  fee: boolean;
  /** Whether the node writes `ismweb` in inputs and outputs (Litecoin Core). */
  mwebFlags: boolean;
}

/** How a transaction's JSON is kept: one of the two, or a recipe beside the bytes. */
export interface KeptTxJson {
  raw: string | null;
  rawBytes: string | null;
}

const entries = (list: unknown): Record<string, unknown>[] =>
  Array.isArray(list)
    ? list.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    : [];

const hasLegacyAddresses = (json: Record<string, unknown>): boolean =>
  entries(json.vout).some((o) => {
    const spk = o.scriptPubKey as Record<string, unknown> | undefined;
    return typeof spk === 'object' && spk !== null && ('addresses' in spk || 'reqSigs' in spk);
  });

const hasMwebFlags = (json: Record<string, unknown>): boolean =>
  [...entries(json.vin), ...entries(json.vout)].some((e) => 'ismweb' in e);

/** The keys the renderer writes, at the top and in a scriptPubKey. */
const TX_KEYS = new Set([
  'txid',
  'hash',
  'version',
  'size',
  'vsize',
  'weight',
  'locktime',
  'vin',
  'vout',
  'fee',
  'hex',
]);
const SCRIPT_PUBKEY_KEYS = new Set(['asm', 'hex', 'reqSigs', 'type', 'addresses', 'address']);

/**
 * A quick no before any rendering: the node writes keys the renderer does not (Bitcoin Core ≥ 23 writes `desc`
 * in every scriptPubKey, a newer node fields of its own), so the comparison could only fail.
 */
function writesUnknownKeys(json: Record<string, unknown>): boolean {
  for (const k of Object.keys(json)) if (!TX_KEYS.has(k)) return true;
  const spk = entries(json.vout)[0]?.scriptPubKey;
  if (typeof spk === 'object' && spk !== null)
    for (const k of Object.keys(spk)) if (!SCRIPT_PUBKEY_KEYS.has(k)) return true;
  return false;
}

/**
 * How to keep a transaction of the bitcoin profile, given the node's JSON of it (`getblock <hash> 2`), the names
 * the node gave its outputs (as stored in `outputs` and `addresses`) and its fee: as its bytes and a recipe when
 * rendering them gives back the node's JSON exactly (about a third of the JSON's size even compressed), else as
 * the node's JSON. A node that writes something this renderer does not (a newer field, a multisig's address
 * list, MWEB's extension data) keeps its JSON for that transaction, so what is served is always what it wrote.
 */
export function keepCoreTxJson(
  json: Record<string, unknown>,
  outputs: readonly CoreOutputNames[],
  fee: bigint,
): KeptTxJson {
  const text = JSON.stringify(json);
  const asJson = { raw: text, rawBytes: null };
  const hex = json.hex;
  if (typeof hex !== 'string' || hex.length === 0 || writesUnknownKeys(json)) return asJson;
  const recipe: CoreRawRecipe = {
    render: 'core',
    v: 1,
    legacyAddresses: hasLegacyAddresses(json),
    fee: 'fee' in json,
    mwebFlags: hasMwebFlags(json),
  };
  let rendered: string;
  try {
    rendered = JSON.stringify(renderKeptCoreTx(recipe, Buffer.from(hex, 'hex'), outputs, fee));
  } catch {
    return asJson;
  }
  return rendered === text ? { raw: JSON.stringify(recipe), rawBytes: hex } : asJson;
}

/** The node's JSON of a Core transaction kept as its bytes and a recipe (the inverse of `keepCoreTxJson`). */
export function renderKeptCoreTx(
  recipe: CoreRawRecipe,
  bytes: Uint8Array,
  outputs: readonly CoreOutputNames[],
  fee: bigint,
): Record<string, unknown> {
  const tx = decodeTx(bytes);
  if (tx.outputs.length !== outputs.length)
    throw new Error(
      `transaction ${tx.txid} has ${tx.outputs.length} outputs, and ${outputs.length} are stored with their names`,
    );
  return renderCoreTx(tx, outputs, {
    legacyAddresses: recipe.legacyAddresses,
    fee: recipe.fee ? fee : null,
    mwebFlags: recipe.mwebFlags,
  });
}

/** Whether `txs.raw` beside kept bytes is a Core recipe (Pearl keeps no JSON at all). */
export function isCoreRawRecipe(raw: unknown): raw is CoreRawRecipe {
  return (
    typeof raw === 'object' &&
    raw !== null &&
    (raw as { render?: unknown }).render === 'core' &&
    (raw as { v?: unknown }).v === 1 &&
    typeof (raw as { legacyAddresses?: unknown }).legacyAddresses === 'boolean' &&
    typeof (raw as { fee?: unknown }).fee === 'boolean' &&
    typeof (raw as { mwebFlags?: unknown }).mwebFlags === 'boolean'
  );
}
