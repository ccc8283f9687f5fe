import { ByteReader, DecodeError } from '../bytes/reader.js';
import { varintSize } from '../bytes/writer.js';
import { fromDisplayHex, sha256d, toDisplayHex } from '../hash.js';
import { type DecodedTx, merkleRoot, readTx } from '../tx.js';
import {
  CERTIFICATE_LIMITS,
  type CertificateLayout,
  type PearlCertificate,
  readCertificate,
} from './certificate.js';
import { type DecodedPearlHeader, PEARL_HEADER_SIZE, readPearlHeader } from './header.js';

/** MaxBlockPayload: the largest block without its certificate. */
export const MAX_BLOCK_PAYLOAD = 4_000_000;
/** btcd bounds a block's transaction count by the smallest possible transaction (10 bytes). */
const MAX_TX_PER_BLOCK = Math.floor(MAX_BLOCK_PAYLOAD / 10);
/** MaxBlockHeadersPerMsg. */
export const MAX_HEADERS_PER_MESSAGE = 100;

/** A block decoded from pearld's serialization (`getblock <hash> 0`). */
export interface DecodedPearlBlock {
  /** The certificate, or null when its bytes could not be decoded (then `certificateError` says why). */
  certificate: PearlCertificate | null;
  /** The bytes before the header, whatever they hold. */
  certificateBytes: Uint8Array;
  certificateError: string | null;
  header: DecodedPearlHeader;
  txs: DecodedTx[];
  /** Bytes of the whole block, certificate included (pearld's `size`). */
  size: number;
  /** Header, count and transactions without witness data; no certificate (pearld's `strippedsize`). */
  strippedSize: number;
  /** strippedSize + ⌈witness bytes ÷ 4⌉; no certificate (pearld's `vsize`). */
  vsize: number;
  /** BIP141 weight of header and transactions: strippedSize × 3 + their full size. */
  weight: number;
}

const hashAt = (b: Uint8Array, o: number) => toDisplayHex(sha256d(b.subarray(o, o + PEARL_HEADER_SIZE)));

/**
 * Decodes a Pearl block and proves it is the block asked for: the 108-byte header after the certificate must
 * hash to `expectedHash`, and the transactions must fill the rest and hash to the header's merkle root.
 *
 * A certificate pearld's current rules cannot read (an unknown version, a field over its cap, an older v4
 * layout) does not stop the decoding: older v4 layouts are tried, and failing those the header is found by its
 * hash (after `prevHash`, when given). The certificate is then null and `certificateError` says why.
 * @throws DecodeError when no such header exists, or the transactions do not decode or match it.
 */
export function decodePearlBlock(
  bytes: Uint8Array,
  expectedHash: string,
  opts: { prevHash?: string | null } = {},
): DecodedPearlBlock {
  const r = new ByteReader(bytes);
  let certificate: PearlCertificate | null = null;
  let certificateError: string | null = null;
  const layouts: CertificateLayout[] = ['v4', 'v4-large-blobs', 'v4-no-ancestors'];
  for (const layout of layouts) {
    r.offset = 0;
    try {
      const c = readCertificate(r, layout);
      if (r.remaining >= PEARL_HEADER_SIZE && hashAt(bytes, r.offset) === expectedHash) {
        certificate = c;
        certificateError = null;
        break;
      }
      certificateError ??= `the ${r.offset} bytes read as a version ${c.version} certificate are not followed by the header of ${expectedHash}`;
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      certificateError ??= err.message;
    }
    // Only version 4 has had other layouts.
    if (bytes.length < 4 || new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) !== 4) break;
  }
  let headerAt = certificate ? r.offset : findHeader(bytes, expectedHash, opts.prevHash ?? null);
  if (headerAt < 0) {
    throw new DecodeError(
      `no 108-byte header hashing to ${expectedHash} in the block bytes (${certificateError ?? 'certificate unreadable'})`,
      0,
    );
  }
  r.offset = headerAt;
  const header = readPearlHeader(r);
  headerAt = r.offset;
  const count = r.varint('transaction count', Math.min(MAX_TX_PER_BLOCK, r.remaining));
  if (count === 0) throw new DecodeError('block has no transactions', headerAt);
  const txs: DecodedTx[] = new Array(count);
  let stripped = PEARL_HEADER_SIZE + varintSize(count);
  let full = PEARL_HEADER_SIZE + varintSize(count);
  for (let i = 0; i < count; i++) {
    const tx = readTx(r);
    txs[i] = tx;
    stripped += tx.baseSize;
    full += tx.size;
  }
  if (r.remaining !== 0) throw new DecodeError(`${r.remaining} bytes after the last transaction`, r.offset);
  const root = toDisplayHex(merkleRoot(txs.map((t) => fromDisplayHex(t.txid))));
  if (root !== header.merkleRoot) {
    throw new DecodeError(
      `merkle root mismatch: the header carries ${header.merkleRoot}, the transactions hash to ${root}`,
      0,
    );
  }
  const certEnd = header.bytes.byteOffset - bytes.byteOffset;
  return {
    certificate,
    certificateBytes: bytes.subarray(0, certEnd),
    certificateError,
    header,
    txs,
    size: bytes.length,
    strippedSize: stripped,
    vsize: stripped + Math.ceil((full - stripped) / 4),
    weight: stripped * 3 + full,
  };
}

/**
 * The offset of the header hashing to `hash`, searched where a certificate could end. With the previous block's
 * hash known, only the places that hold it are hashed.
 */
function findHeader(bytes: Uint8Array, hash: string, prevHash: string | null): number {
  const last = Math.min(bytes.length - PEARL_HEADER_SIZE, 4 + CERTIFICATE_LIMITS.legacyMaxCertificateV4);
  if (prevHash) {
    const prev = fromDisplayHex(prevHash);
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = buf.indexOf(prev, 8); at >= 0 && at - 4 <= last; at = buf.indexOf(prev, at + 1)) {
      if (hashAt(bytes, at - 4) === hash) return at - 4;
    }
    return -1;
  }
  for (let o = 4; o <= last; o++) if (hashAt(bytes, o) === hash) return o;
  return -1;
}

/** One entry of a headers message: a certificate and the header it certifies. */
export interface CertifiedHeader {
  certificate: PearlCertificate;
  header: DecodedPearlHeader;
}

/**
 * Decodes a `headers` message (and `getheaders` output): a count, then certificate ‖ header pairs. A batch may
 * not mix certified and uncertified (version 0) headers.
 * @throws DecodeError
 */
export function decodePearlHeaders(bytes: Uint8Array): CertifiedHeader[] {
  const r = new ByteReader(bytes);
  const count = r.varint('header count');
  if (count > MAX_HEADERS_PER_MESSAGE) {
    throw new DecodeError(`too many block headers for message: ${count} (max ${MAX_HEADERS_PER_MESSAGE})`, 0);
  }
  const out: CertifiedHeader[] = [];
  for (let i = 0; i < count; i++) {
    const certificate = readCertificate(r);
    out.push({ certificate, header: readPearlHeader(r) });
  }
  if (r.remaining !== 0) throw new DecodeError(`${r.remaining} bytes after the headers`, r.offset);
  const certified = out.filter((h) => h.certificate.version !== 0).length;
  if (certified > 0 && certified < out.length) {
    throw new DecodeError('headers batch mixes certified and uncertified headers', 0);
  }
  return out;
}
