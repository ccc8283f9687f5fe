import { decodeTx } from '@explorer/chain';
import { describe, expect, it } from 'vitest';
import type { BlockRecord, TxDetail } from '../../store.js';
import { esploraBlock, esploraScriptType, esploraTx, feeHistogram } from './render.js';

// Bitcoin's genesis block and its coinbase, public facts of the chain: the body electrs writes for them, byte
// for byte (field order included). The coinbase's bytes are checked against its txid first.
const GENESIS_HASH = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';
const GENESIS_TXID = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b';
const COINBASE_SCRIPT =
  '04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73';
const PUBKEY =
  '04678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5f';
const GENESIS_COINBASE = `01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff4d${COINBASE_SCRIPT}ffffffff0100f2052a0100000043${`41${PUBKEY}ac`}00000000`;

describe('Esplora bodies', () => {
  it("writes Bitcoin's genesis coinbase as electrs does", () => {
    const decoded = decodeTx(Buffer.from(GENESIS_COINBASE, 'hex'));
    expect(decoded.txid).toBe(GENESIS_TXID);
    const detail: TxDetail = {
      tx: {
        txid: GENESIS_TXID,
        blockHeight: 0,
        blockHash: GENESIS_HASH,
        blockIndex: 0,
        time: 1231006505,
        size: decoded.size,
        vsize: decoded.vsize,
        weight: decoded.weight,
        version: decoded.version,
        locktime: decoded.locktime,
        inputCount: 1,
        outputCount: 1,
        valueIn: '0',
        valueOut: '5000000000',
        fee: '0',
        feeRate: 0,
        isCoinbase: true,
        type: 'coinbase',
      },
      inputs: [
        {
          prevTxid: null,
          prevVout: null,
          scriptSig: COINBASE_SCRIPT,
          witness: [],
          sequence: 0xffffffff,
          prevout: null,
        },
      ],
      outputs: [{ value: '5000000000', script: `41${PUBKEY}ac`, address: null, scriptType: 'pubkey' }],
    };
    expect(JSON.stringify(esploraTx(detail))).toBe(
      JSON.stringify({
        txid: GENESIS_TXID,
        version: 1,
        locktime: 0,
        vin: [
          {
            txid: '0'.repeat(64),
            vout: 4294967295,
            prevout: null,
            scriptsig: COINBASE_SCRIPT,
            scriptsig_asm: `OP_PUSHBYTES_4 ffff001d OP_PUSHBYTES_1 04 OP_PUSHBYTES_69 ${COINBASE_SCRIPT.slice(16)}`,
            is_coinbase: true,
            sequence: 4294967295,
          },
        ],
        vout: [
          {
            scriptpubkey: `41${PUBKEY}ac`,
            scriptpubkey_asm: `OP_PUSHBYTES_65 ${PUBKEY} OP_CHECKSIG`,
            scriptpubkey_type: 'p2pk',
            value: 5000000000,
          },
        ],
        size: 204,
        weight: 816,
        fee: 0,
        status: { confirmed: true, block_height: 0, block_hash: GENESIS_HASH, block_time: 1231006505 },
      }),
    );
  });

  it("writes Bitcoin's genesis block as electrs does (its parent null, bits a number)", () => {
    const block = {
      hash: GENESIS_HASH,
      height: 0,
      version: 1,
      time: 1231006505,
      txCount: 1,
      size: 285,
      weight: 1140,
      merkleRoot: GENESIS_TXID,
      previousHash: null,
      medianTime: 1231006505,
      nonce: 2083236893,
      bits: '1d00ffff',
      difficulty: 1,
    } as unknown as BlockRecord;
    expect(JSON.stringify(esploraBlock(block))).toBe(
      `{"id":"${GENESIS_HASH}","height":0,"version":1,"timestamp":1231006505,"tx_count":1,"size":285,"weight":1140,"merkle_root":"${GENESIS_TXID}","previousblockhash":null,"mediantime":1231006505,"nonce":2083236893,"bits":486604799,"difficulty":1}`,
    );
  });

  it('names script types by electrs’s checks, in its order', () => {
    const t = (hex: string) => esploraScriptType(Buffer.from(hex, 'hex'));
    expect(t('')).toBe('empty');
    expect(t('6a')).toBe('op_return');
    expect(t(`21${'02'.repeat(33)}ac`)).toBe('p2pk');
    expect(t(`41${PUBKEY}ac`)).toBe('p2pk');
    expect(t(`76a914${'11'.repeat(20)}88ac`)).toBe('p2pkh');
    expect(t(`a914${'11'.repeat(20)}87`)).toBe('p2sh');
    expect(t(`0014${'11'.repeat(20)}`)).toBe('v0_p2wpkh');
    expect(t(`0020${'11'.repeat(32)}`)).toBe('v0_p2wsh');
    expect(t(`5120${'11'.repeat(32)}`)).toBe('v1_p2tr');
    // Witness version 2 (Pearl's P2MR), bare multisig, a non-minimal P2PKH: unknown, as electrs has them.
    expect(t(`5220${'11'.repeat(32)}`)).toBe('unknown');
    expect(t(`5121${'02'.repeat(33)}51ae`)).toBe('unknown');
    expect(t(`76a94c14${'11'.repeat(20)}88ac`)).toBe('unknown');
  });

  it('bins the mempool by fee rate as electrs: highest first, a bin closing past 50,000 vbytes where the rate changes', () => {
    const entries = [
      ...Array.from({ length: 10 }, () => ({ fee: 1_000, vsize: 1_000 })), // 1 per vbyte
      ...Array.from({ length: 60 }, () => ({ fee: 3_000, vsize: 1_000 })), // 3 per vbyte, 60,000 vB
    ];
    // The rate-3 bin passes 50,000 vB but closes only where the rate changes; what remains is the last bin.
    expect(feeHistogram(entries)).toEqual([
      [3, 60_000],
      [1, 10_000],
    ]);
    // Below 50,000 vB nothing closes: one bin, at the lowest rate.
    expect(feeHistogram(entries.slice(0, 30))).toEqual([[1, 30_000]]);
    expect(feeHistogram([])).toEqual([]);
  });
});
