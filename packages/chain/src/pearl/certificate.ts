import { ByteReader, DecodeError } from '../bytes/reader.js';
import { ByteWriter, varintSize } from '../bytes/writer.js';
import { fromDisplayHex, sha256d, toDisplayHex } from '../hash.js';
import { PEARL_HEADER_SIZE, pearlHeaderHash } from './header.js';

/** Size limits of pearld's wire package (newest commit read; older v4 limits kept for lenient decoding). */
export const CERTIFICATE_LIMITS = {
  /** MaxZKProofSize: a v1–v3 proof, and each v4 blob. */
  maxProof: 60_000,
  /** Whole certificate (with its version) of versions 1–4. */
  maxCertificate: 65_000,
  /** v1 public data is exactly this long; v2/v3 dense (non-MoE) public data too. */
  densePublicData: 164,
  /** PublicDataMaxSizeV2: v2/v3 public data. */
  maxPublicDataV2: 4_807,
  /** MaxFp16ZkCertProofSize: the v5 proof. */
  maxProofV5: 79_000,
  /** CertificateV5MaxSize: 79,000 + 32 + 4 + 1 + 2 × 108. */
  maxCertificateV5: 79_253,
  /** MaxCertificateV4AncestorHeaders. */
  maxAncestorsV4: 3,
  /** MaxCertificateV5AncestorHeaders. */
  maxAncestorsV5: 2,
  /** Older commits: each v4 blob up to MaxFp8ProofSize, the whole v4 certificate up to 262,405 bytes. */
  legacyMaxBlobV4: 131_072,
  legacyMaxCertificateV4: 262_405,
} as const;

/** How a certificate's bytes were laid out. */
export type CertificateLayout =
  /** Version 0: no certificate. */
  | 'null'
  | 'v1'
  /** Versions 2 and 3. */
  | 'v2'
  /** Version 4 as pearld writes it now: ancestor headers, 60,000-byte blobs. */
  | 'v4'
  /** Version 4 of older commits: ancestor headers, blobs up to 131,072 bytes. */
  | 'v4-large-blobs'
  /** Version 4 of the oldest commits: no ancestor count at all. */
  | 'v4-no-ancestors'
  | 'v5';

/** A decoded certificate (MsgCertificate). */
export interface PearlCertificate {
  version: number;
  /** The hash field: the hash of the block it certifies, display order. */
  blockHash: string;
  /** Public inputs of the proof; null for versions 0 and 5. */
  publicData: Uint8Array | null;
  proof: Uint8Array;
  /** Ancestor headers (108 bytes each, parent first) of versions 4 and 5. */
  ancestorHeaders: Uint8Array[];
  layout: CertificateLayout;
  /** The serialized certificate, version included. */
  bytes: Uint8Array;
}

const V4_LAYOUTS = {
  v4: { maxBlob: CERTIFICATE_LIMITS.maxProof, max: CERTIFICATE_LIMITS.maxCertificate, ancestors: true },
  'v4-large-blobs': {
    maxBlob: CERTIFICATE_LIMITS.legacyMaxBlobV4,
    max: CERTIFICATE_LIMITS.legacyMaxCertificateV4,
    ancestors: true,
  },
  'v4-no-ancestors': {
    maxBlob: CERTIFICATE_LIMITS.legacyMaxBlobV4,
    max: CERTIFICATE_LIMITS.legacyMaxCertificateV4,
    ancestors: false,
  },
} as const;

/** The largest serialized certificate (version included) of a version and layout. */
export function maxCertificateSize(version: number, layout: CertificateLayout = 'v4'): number {
  if (version === 5) return CERTIFICATE_LIMITS.maxCertificateV5;
  if (version === 4 && layout in V4_LAYOUTS) return V4_LAYOUTS[layout as keyof typeof V4_LAYOUTS].max;
  return CERTIFICATE_LIMITS.maxCertificate;
}

function blob(r: ByteReader, name: string, max: number): Uint8Array {
  const at = r.offset;
  const n = r.u32(`${name} length`);
  if (n > max) throw new DecodeError(`${name}_len ${n} exceeds max ${max}`, at);
  return r.take(n, name);
}

function ancestors(r: ByteReader, version: 4 | 5, max: number): Uint8Array[] {
  const at = r.offset;
  // The count is read with no bound first, so that a count over the limit says so rather than "too large".
  const count = r.varint(`v${version} ancestor header count`);
  if (count > max) throw new DecodeError(`too many v${version} ancestor headers: ${count} (max ${max})`, at);
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) out.push(r.take(PEARL_HEADER_SIZE, `v${version} ancestor header ${i}`));
  return out;
}

/**
 * Reads one certificate at the reader's offset: LE32 version, then that version's fields, within that version's
 * size caps. Version 4 is read in `v4Layout` (the current layout unless told otherwise).
 * @throws DecodeError for an unknown version, a field over its cap, a non-canonical count or truncated bytes.
 */
export function readCertificate(r: ByteReader, v4Layout: CertificateLayout = 'v4'): PearlCertificate {
  const start = r.offset;
  const version = r.u32('certificate version');
  if (version > 5) throw new DecodeError(`unsupported certificate version: ${version}`, start);
  const layout: CertificateLayout =
    version === 0 ? 'null' : version === 1 ? 'v1' : version <= 3 ? 'v2' : version === 4 ? v4Layout : 'v5';
  const cap = maxCertificateSize(version, layout);
  // pearld reads a certificate through a reader limited to its version's maximum size.
  const limited = new ByteReader(r.bytes, r.offset, Math.min(r.end, start + cap));
  let cert: PearlCertificate;
  try {
    cert = readFields(limited, version, layout);
  } catch (err) {
    if (err instanceof DecodeError && err.truncated && start + cap < r.end) {
      throw new DecodeError(
        `certificate version ${version} is larger than its maximum of ${cap} bytes`,
        start,
      );
    }
    throw err;
  }
  r.offset = limited.offset;
  cert.bytes = r.bytes.subarray(start, r.offset);
  return cert;
}

function readFields(r: ByteReader, version: number, layout: CertificateLayout): PearlCertificate {
  const base = { version, layout, bytes: new Uint8Array(0) };
  if (version === 0) {
    return {
      ...base,
      blockHash: '0'.repeat(64),
      publicData: null,
      proof: new Uint8Array(0),
      ancestorHeaders: [],
    };
  }
  const hash = toDisplayHex(r.take(32, 'certificate hash'));
  if (version === 1) {
    const publicData = r.take(CERTIFICATE_LIMITS.densePublicData, 'v1 public data');
    const at = r.offset;
    const n = r.u32('proof length');
    if (n > CERTIFICATE_LIMITS.maxProof) {
      throw new DecodeError(`proof data too large: ${n} bytes (max ${CERTIFICATE_LIMITS.maxProof})`, at);
    }
    return { ...base, blockHash: hash, publicData, proof: r.take(n, 'proof'), ancestorHeaders: [] };
  }
  if (version <= 3) {
    const publicData = blob(r, 'public_data', CERTIFICATE_LIMITS.maxPublicDataV2);
    const proof = blob(r, 'proof_data', CERTIFICATE_LIMITS.maxProof);
    return { ...base, blockHash: hash, publicData, proof, ancestorHeaders: [] };
  }
  if (version === 4) {
    const l = V4_LAYOUTS[layout as keyof typeof V4_LAYOUTS];
    const publicData = blob(r, 'public_data', l.maxBlob);
    const proof = blob(r, 'proof_data', l.maxBlob);
    const ancestorHeaders = l.ancestors ? ancestors(r, 4, CERTIFICATE_LIMITS.maxAncestorsV4) : [];
    return { ...base, blockHash: hash, publicData, proof, ancestorHeaders };
  }
  const proof = blob(r, 'fp16_zk_proof_data', CERTIFICATE_LIMITS.maxProofV5);
  const ancestorHeaders = ancestors(r, 5, CERTIFICATE_LIMITS.maxAncestorsV5);
  return { ...base, blockHash: hash, publicData: null, proof, ancestorHeaders };
}

/**
 * Decodes a certificate that must fill `bytes` exactly.
 * @example decodeCertificate(Buffer.from('00000000', 'hex')).version // 0
 */
export function decodeCertificate(bytes: Uint8Array, v4Layout: CertificateLayout = 'v4'): PearlCertificate {
  const r = new ByteReader(bytes);
  const cert = readCertificate(r, v4Layout);
  if (r.remaining !== 0) throw new DecodeError(`${r.remaining} bytes after the certificate`, r.offset);
  return cert;
}

/**
 * The proof commitment a header must carry for a certificate: SHA256d(LE32(version) ‖ public data) for
 * versions 1–4, SHA256d(LE32(5) ‖ proof) for version 5; display order. Ancestor headers are outside it.
 */
export function certificateCommitment(
  cert: Pick<PearlCertificate, 'version' | 'publicData' | 'proof'>,
): string {
  const v = Buffer.alloc(4);
  v.writeUInt32LE(cert.version, 0);
  const body = cert.version === 5 ? cert.proof : (cert.publicData ?? new Uint8Array(0));
  return toDisplayHex(sha256d(v, body));
}

/** Whether consensus accepts a certificate version in a block (pearld's IsCertVersionAllowed). */
export function isCertificateVersionAllowed(version: number): boolean {
  return version >= 1 && version <= 4;
}

/**
 * What pearld's VerifyCertificate (and block sanity checks) would object to, as messages; empty when the
 * certificate binds to the header. `blockHash` is the hash of the header it came with.
 */
export function certificateProblems(
  cert: PearlCertificate,
  header: { proofCommitment: string; hash: string },
): string[] {
  const out: string[] = [];
  if (!isCertificateVersionAllowed(cert.version)) {
    out.push(`certificate version ${cert.version} is not allowed`);
  }
  if (cert.version === 0) return out;
  if (cert.proof.length === 0) out.push('empty proof data');
  const commitment = certificateCommitment(cert);
  if (commitment !== header.proofCommitment) {
    out.push(
      `proof commitment mismatch: the header carries ${header.proofCommitment}, the certificate hashes to ${commitment}`,
    );
  }
  if (cert.blockHash !== header.hash) {
    out.push(
      `block hash mismatch: the certificate names ${cert.blockHash}, the header hashes to ${header.hash}`,
    );
  }
  for (const [i, a] of cert.ancestorHeaders.entries()) {
    if (a.length !== PEARL_HEADER_SIZE) out.push(`ancestor header ${i} is ${a.length} bytes`);
  }
  return out;
}

/** The hashes (display order) of a certificate's ancestor headers. */
export function ancestorHashes(cert: PearlCertificate): string[] {
  return cert.ancestorHeaders.map((h) => pearlHeaderHash(h));
}

/** What encodeCertificate needs. */
export interface CertificateFields {
  version: number;
  /** Display order. */
  blockHash: string;
  publicData?: Uint8Array | null;
  proof: Uint8Array;
  ancestorHeaders?: Uint8Array[];
}

/**
 * Serializes a certificate in the current layout of its version, refusing what pearld's encoder refuses
 * (too many ancestors, a field or the whole over its cap).
 */
export function encodeCertificate(c: CertificateFields): Buffer {
  const v = c.version;
  if (!Number.isInteger(v) || v < 0 || v > 5) throw new Error(`unsupported certificate version: ${v}`);
  if (v === 0) return Buffer.from([0, 0, 0, 0]);
  const pub = c.publicData ?? new Uint8Array(0);
  const anc = c.ancestorHeaders ?? [];
  const L = CERTIFICATE_LIMITS;
  if (v === 1 && pub.length !== L.densePublicData)
    throw new Error(`v1 public data must be ${L.densePublicData} bytes`);
  if ((v === 2 || v === 3) && pub.length > L.maxPublicDataV2) throw new Error('public data too large');
  if (v === 4 && pub.length > L.maxProof) throw new Error('public data too large');
  if (v === 4 && anc.length > L.maxAncestorsV4) throw new Error('too many v4 ancestor headers');
  if (v === 5 && anc.length > L.maxAncestorsV5) throw new Error('too many v5 ancestor headers');
  if (v < 4 && anc.length > 0) throw new Error(`certificate version ${v} has no ancestor headers`);
  let size = 4 + 32 + 4 + c.proof.length;
  if (v === 1) size += pub.length;
  if (v >= 2 && v <= 4) size += 4 + pub.length;
  if (v >= 4) size += varintSize(anc.length) + anc.length * PEARL_HEADER_SIZE;
  if (size > maxCertificateSize(v)) throw new Error('certificate too large');
  if (c.proof.length > (v === 5 ? L.maxProofV5 : L.maxProof)) throw new Error('proof data too large');
  const w = new ByteWriter(size).u32(v).raw(fromDisplayHex(c.blockHash));
  if (v === 1) w.raw(pub);
  else if (v <= 4) w.u32(pub.length).raw(pub);
  w.u32(c.proof.length).raw(c.proof);
  if (v >= 4) {
    w.varint(anc.length);
    for (const a of anc) w.raw(a);
  }
  return w.finish();
}

/**
 * The proof commitment of a header that commits to no certificate. No prover can make a certificate hash to
 * it, so a header carrying it holds a placeholder: simnet's blocks (simnet skips proof of work by design) and
 * Pearl's genesis literal.
 */
export const PLACEHOLDER_COMMITMENT = '0'.repeat(64);

/** How a block's certificate stands against its header. */
export const CERTIFICATE_STATUSES = ['verified', 'placeholder', 'failed', 'unreadable'] as const;

/** One of CERTIFICATE_STATUSES. */
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/**
 * `verified` when the certificate binds to its header, `placeholder` when it does not but the header commits
 * to nothing (an all-zero proof commitment), `failed` when it does not bind to a header that commits to
 * something, `unreadable` when its bytes did not decode.
 * @example certificateStatus({ readable: true, binds: false, proofCommitment: PLACEHOLDER_COMMITMENT }) // 'placeholder'
 */
export function certificateStatus(c: {
  readable: boolean;
  binds: boolean;
  proofCommitment: string;
}): CertificateStatus {
  if (!c.readable) return 'unreadable';
  if (c.binds) return 'verified';
  return c.proofCommitment === PLACEHOLDER_COMMITMENT ? 'placeholder' : 'failed';
}
