import { describe, expect, it } from 'vitest';
import { keepCoreTxJson, renderKeptCoreTx } from './raw-tx.js';

/** A wallet transaction as litecoind 0.21 wrote it in `getblock <hash> 2` (regtest). */
const LITECOIND_TX = {
  txid: 'cd2cab6de0da710e01e5782e2ba7a6ec91ab926d7550b5d18ae223411e461a46',
  hash: 'eddcdb2ea1eece9de1cb90ea66583873a9e4a84623730ff56f3f1ea661434ac3',
  version: 2,
  size: 222,
  vsize: 141,
  weight: 561,
  locktime: 101,
  vin: [
    {
      ismweb: false,
      txid: 'f5c2234cd288858d386c75bd27b2999ba9d966c00d4a01781dc8505d9477ca93',
      vout: 0,
      scriptSig: { asm: '', hex: '' },
      txinwitness: [
        '3044022010442acd04cc3676902b3cc765c0342a2165d9a2373a8d459077a1819387030d0220467859650d55973acd8a609d4176b19dd570fe93ef76391cc89100403871a4b101',
        '03523be29af0c7c67b22884ea6ea8f5cf6a5e456b0f608bab50c89c4da3bf6e69c',
      ],
      sequence: 4294967294,
    },
  ],
  vout: [
    {
      ismweb: false,
      value: 48.4999859,
      n: 0,
      scriptPubKey: {
        asm: '0 ea644871ead963b3cf258092cd037fd0beb6c6ef',
        hex: '0014ea644871ead963b3cf258092cd037fd0beb6c6ef',
        reqSigs: 1,
        type: 'witness_v0_keyhash',
        addresses: ['rltc1qafjysu02m93m8ne9szfv6qml6zltd3h0y9a4nj'],
      },
    },
    {
      ismweb: false,
      value: 1.5,
      n: 1,
      scriptPubKey: {
        asm: '0 2e6163fcbc398fadde26a7c2ef8472890b376c38',
        hex: '00142e6163fcbc398fadde26a7c2ef8472890b376c38',
        reqSigs: 1,
        type: 'witness_v0_keyhash',
        addresses: ['rltc1q9esk8l9u8x86mh3x5lpwlprj3y9nwmpcgepr42'],
      },
    },
  ],
  hex: '0200000000010193ca77945d50c81d78014a0dc066d9a99b99b227bd756c388d8588d24c23c2f50000000000feffffff02fe1a152101000000160014ea644871ead963b3cf258092cd037fd0beb6c6ef80d1f008000000001600142e6163fcbc398fadde26a7c2ef8472890b376c3802473044022010442acd04cc3676902b3cc765c0342a2165d9a2373a8d459077a1819387030d0220467859650d55973acd8a609d4176b19dd570fe93ef76391cc89100403871a4b1012103523be29af0c7c67b22884ea6ea8f5cf6a5e456b0f608bab50c89c4da3bf6e69c65000000',
};
const NAMES = LITECOIND_TX.vout.map((o) => ({
  type: o.scriptPubKey.type,
  address: o.scriptPubKey.addresses[0] ?? null,
}));
const FEE = 1_410n;

/** The same transaction as Bitcoin Core ≥ 22 writes it: one `address`, no `ismweb`, a `fee`. */
function modern(): Record<string, unknown> {
  const { hex, vin, vout, ...head } = structuredClone(LITECOIND_TX);
  return {
    ...head,
    vin: vin.map(({ ismweb: _m, ...i }) => i),
    vout: vout.map(({ ismweb: _m, scriptPubKey: { reqSigs: _r, addresses, type, ...spk }, ...o }) => ({
      ...o,
      scriptPubKey: { ...spk, address: addresses[0], type },
    })),
    fee: Number(FEE) / 1e8,
    hex,
  };
}

/** Stores a transaction's JSON as the indexer does, then reads it back as the API does. */
function roundTrip(json: Record<string, unknown>, names = NAMES, fee = FEE) {
  const kept = keepCoreTxJson(json, names, fee);
  if (kept.rawBytes === null) return { kept, served: kept.raw === null ? null : JSON.parse(kept.raw) };
  const recipe = JSON.parse(kept.raw!);
  return { kept, served: renderKeptCoreTx(recipe, Buffer.from(kept.rawBytes, 'hex'), names, fee) };
}

describe('keeping a Core transaction as its bytes', () => {
  it("keeps litecoind's JSON as bytes and a recipe, and renders it back as the same text", () => {
    const { kept, served } = roundTrip(LITECOIND_TX);
    expect(kept.rawBytes).toBe(LITECOIND_TX.hex);
    expect(JSON.parse(kept.raw!)).toEqual({
      render: 'core',
      v: 1,
      legacyAddresses: true,
      fee: false,
      mwebFlags: true,
    });
    expect(JSON.stringify(served)).toBe(JSON.stringify(LITECOIND_TX));
  });

  it("does the same for Bitcoin Core's newer JSON (one address, the fee)", () => {
    const json = modern();
    const { kept, served } = roundTrip(json);
    expect(JSON.parse(kept.raw!)).toEqual({
      render: 'core',
      v: 1,
      legacyAddresses: false,
      fee: true,
      mwebFlags: false,
    });
    expect(JSON.stringify(served)).toBe(JSON.stringify(json));
  });

  it('keeps the JSON itself wherever rendering would not give back exactly what the node wrote', () => {
    const variants: Record<string, Record<string, unknown>> = {
      'a field the renderer does not know': { ...LITECOIND_TX, blockhash: '00'.repeat(32) },
      'the same fields in another order': (() => {
        const { txid, hash, ...rest } = LITECOIND_TX;
        return { hash, txid, ...rest };
      })(),
      'no hex': { ...LITECOIND_TX, hex: undefined },
      "Bitcoin Core 23's descriptors": {
        ...LITECOIND_TX,
        vout: LITECOIND_TX.vout.map((o) => ({
          ...o,
          scriptPubKey: { ...o.scriptPubKey, desc: 'addr(…)#00000000' },
        })),
      },
      'hex that is not a transaction': { ...LITECOIND_TX, hex: 'zz00' },
      'hex of another transaction': { ...LITECOIND_TX, hex: `${LITECOIND_TX.hex.slice(0, -2)}66` },
      'an output paying two addresses (bare multisig)': {
        ...LITECOIND_TX,
        vout: [
          { ...LITECOIND_TX.vout[0], scriptPubKey: { ...LITECOIND_TX.vout[0]!.scriptPubKey, reqSigs: 2 } },
          LITECOIND_TX.vout[1],
        ],
      },
    };
    for (const [what, json] of Object.entries(variants)) {
      const { kept, served } = roundTrip(json);
      expect({ what, rawBytes: kept.rawBytes }).toEqual({ what, rawBytes: null });
      expect(JSON.stringify(served)).toBe(JSON.stringify(json));
    }
    // A fee the index computed otherwise than the node wrote it.
    expect(roundTrip(modern(), NAMES, FEE + 1n).kept.rawBytes).toBeNull();
    // Output names the index stored otherwise than the node wrote them.
    expect(
      roundTrip(LITECOIND_TX, [NAMES[0]!, { type: 'nonstandard', address: null }]).kept.rawBytes,
    ).toBeNull();
  });

  it('refuses to render with fewer or more stored output names than the transaction has', () => {
    const kept = keepCoreTxJson(LITECOIND_TX, NAMES, FEE);
    const recipe = JSON.parse(kept.raw!);
    const bytes = Buffer.from(kept.rawBytes!, 'hex');
    expect(() => renderKeptCoreTx(recipe, bytes, NAMES.slice(1), FEE)).toThrow(/2 outputs, and 1 are stored/);
    expect(() => renderKeptCoreTx(recipe, bytes, [...NAMES, NAMES[0]!], FEE)).toThrow(/3 are stored/);
  });
});
