import { pearlVectors } from '@explorer/test-vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../bytes/reader.js';
import { fromDisplayHex, sha256d, toDisplayHex } from '../hash.js';
import { decodeTx, merkleRoot, serializeTx } from '../tx.js';
import { decodePearlBlock } from './block.js';
import { certificateCommitment, decodeCertificate, encodeCertificate } from './certificate.js';
import { encodePearlHeader } from './header.js';
import { decodeDensePublicData } from './public-data.js';

// Mutated and truncated vectors: every input is decoded or refused with a DecodeError (never another
// exception, never a hang), and whatever decodes re-encodes to exactly the bytes it came from, so no field was
// read past its end or made up.
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const V = pearlVectors;
const hex = (h: string) => Buffer.from(h, 'hex');

type Op =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; n: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  // Length prefixes and counts are where decoders go wrong: write the CompactSize markers and extremes.
  fc.record({
    kind: fc.constant('set' as const),
    at: fc.nat(),
    value: fc.constantFrom(0, 1, 0x7f, 0xfc, 0xfd, 0xfe, 0xff),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 9 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 40 }) }),
);

function mutate(base: Uint8Array, ops: Op[]): Buffer {
  let b = Buffer.from(base);
  for (const o of ops) {
    const at = b.length === 0 ? 0 : o.at % b.length;
    if (o.kind === 'flip') b[at] = (b[at] ?? 0) ^ (1 << o.bit);
    else if (o.kind === 'set') b[at] = o.value;
    else if (o.kind === 'truncate') b = b.subarray(0, at);
    else if (o.kind === 'insert') b = Buffer.concat([b.subarray(0, at), o.bytes, b.subarray(at)]);
    else b = Buffer.concat([b.subarray(0, at), b.subarray(at + o.n)]);
  }
  return b;
}

const mutated = (bases: Uint8Array[]) =>
  fc
    .tuple(fc.constantFrom(...bases), fc.array(op, { minLength: 1, maxLength: 4 }))
    .map(([base, ops]) => mutate(base, ops));

/** Runs `decode`; a throw must be a DecodeError with a message. */
function decodedOrRefused<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err;
    expect(err.message.length).toBeGreaterThan(10);
    return undefined;
  }
}

const txs = V['6_addresses_and_txs'].tx_vectors.map((t: { hex: string }) => hex(t.hex));
const genesis = Object.values<{ block_hex: string; expected_genesis_hash_display: string }>(
  V['4_genesis'].networks,
);
const certificates = V['3_certificates'].vectors
  .map((v: { msg_hex?: string; msg_hex_computed?: string }) => v.msg_hex ?? v.msg_hex_computed)
  .filter(Boolean)
  .map(hex);

/** A block with a v4 MoE-sized certificate carrying two ancestors, and segwit spends: more to mutate. */
function richBlock(): { bytes: Buffer; hash: string } {
  const coinbase = hex(V['4_genesis'].networks.mainnet.coinbase.tx_hex);
  const body = [coinbase, ...txs];
  const root = merkleRoot(body.map((t) => fromDisplayHex(decodeTx(t).txid)));
  const ancestors = genesis
    .slice(0, 2)
    .map((g) =>
      Buffer.from(decodePearlBlock(hex(g.block_hex), g.expected_genesis_hash_display).header.bytes),
    );
  const publicData = Buffer.alloc(300, 9);
  const proof = Buffer.alloc(120, 5);
  const header = {
    version: 0x20000000,
    prevHash: genesis[0]!.expected_genesis_hash_display,
    merkleRoot: toDisplayHex(root),
    time: 1_777_300_000,
    bits: 0x1b00ffff,
    proofCommitment: certificateCommitment({ version: 4, publicData, proof }),
  };
  const headerBytes = encodePearlHeader(header);
  const hash = toDisplayHex(sha256d(headerBytes));
  const cert = encodeCertificate({
    version: 4,
    blockHash: hash,
    publicData,
    proof,
    ancestorHeaders: ancestors,
  });
  return { bytes: Buffer.concat([cert, headerBytes, Buffer.from([body.length]), ...body]), hash };
}

describe('decoders under mutated and truncated vectors', () => {
  it('transactions: decoded and re-encoded byte for byte, or refused', () => {
    fc.assert(
      fc.property(mutated(txs), (bytes) => {
        const tx = decodedOrRefused(() => decodeTx(bytes));
        if (tx) expect(serializeTx(tx).equals(bytes)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('certificates: decoded and re-encoded byte for byte, or refused', () => {
    fc.assert(
      fc.property(mutated(certificates), (bytes) => {
        const cert = decodedOrRefused(() => decodeCertificate(bytes));
        if (cert) expect(encodeCertificate(cert).equals(bytes)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('blocks: the parts of a decoded block are exactly its bytes, or the block is refused', () => {
    const rich = richBlock();
    expect(decodePearlBlock(rich.bytes, rich.hash).certificate?.ancestorHeaders).toHaveLength(2);
    const blocks = [
      { bytes: rich.bytes, hash: rich.hash },
      ...genesis.map((g) => ({ bytes: hex(g.block_hex), hash: g.expected_genesis_hash_display })),
      {
        bytes: hex(V['1_msgblock_test'].blocks[0].block_hex),
        hash: V['1_msgblock_test'].blocks[0].expected_block_hash_display,
      },
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...blocks).chain((b) => mutated([b.bytes]).map((bytes) => ({ bytes, hash: b.hash }))),
        ({ bytes, hash }) => {
          const block = decodedOrRefused(() => decodePearlBlock(bytes, hash));
          if (!block) return;
          expect(block.header.hash).toBe(hash);
          const count = Buffer.from(
            bytes.subarray(
              block.certificateBytes.length + 108,
              bytes.length - block.txs.reduce((n, t) => n + t.size, 0),
            ),
          );
          const again = Buffer.concat([
            block.certificateBytes,
            block.header.bytes,
            count,
            ...block.txs.map((t) => t.bytes),
          ]);
          expect(again.equals(bytes)).toBe(true);
          if (block.certificate)
            expect(encodeCertificate(block.certificate).equals(Buffer.from(block.certificateBytes))).toBe(
              true,
            );
          else expect(block.certificateError).toBeTruthy();
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('public data: decoded or refused', () => {
    const dense = Buffer.alloc(164);
    dense.writeUInt16LE(2, 20);
    const moe = Buffer.concat([
      dense,
      Buffer.alloc(2),
      Buffer.alloc(8),
      Buffer.alloc(32),
      Buffer.from([1]),
      Buffer.alloc(4),
    ]);
    fc.assert(
      fc.property(mutated([Buffer.alloc(164), moe]), (bytes) => {
        const d = decodedOrRefused(() => decodeDensePublicData(bytes));
        if (d)
          expect(d.moe === null ? bytes.length : bytes.length - 164).toBe(
            d.moe === null ? 164 : 35 + 4 * (d.moe.routingOffsets.length + d.moe.outerIndices.length),
          );
      }),
      { numRuns: RUNS },
    );
  });
});
