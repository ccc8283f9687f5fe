export {
  decodeBase58Check,
  decodeSegwitAddress,
  encodeBase58Check,
  encodeSegwitAddress,
  hasValidChecksum,
  type SegwitAddress,
} from './address.js';
export { CORE_HEADER_SIZE, type CoreHeader, encodeCoreHeader } from './bitcoin/header.js';
export {
  CORE_NETWORKS,
  type CoreCoin,
  type CoreNetwork,
  coreChainName,
  coreNetworkByGenesis,
  coreNetworksByChain,
} from './bitcoin/params.js';
export {
  type CoreOutputNames,
  type CoreTxStyle,
  renderCoreScriptPubKey,
  renderCoreTx,
  unitsToCoins,
} from './bitcoin/render.js';
export { ByteReader, DecodeError } from './bytes/reader.js';
export { ByteWriter, varintSize } from './bytes/writer.js';
export {
  blockWork,
  compactToTarget,
  coreDifficulty,
  ratioDifficulty,
  targetToCompact,
} from './difficulty.js';
export { fromDisplayHex, hash160, sha256, sha256d, taggedHash, toDisplayHex } from './hash.js';
export { merkleBlock, merkleBranch, merkleRootFromBranch, partialMerkleTree } from './merkle.js';
export {
  type CertifiedHeader,
  type DecodedPearlBlock,
  decodePearlBlock,
  decodePearlHeaders,
  MAX_BLOCK_PAYLOAD,
  MAX_HEADERS_PER_MESSAGE,
} from './pearl/block.js';
export {
  ancestorHashes,
  CERTIFICATE_LIMITS,
  CERTIFICATE_STATUSES,
  type CertificateFields,
  type CertificateLayout,
  type CertificateStatus,
  certificateCommitment,
  certificateProblems,
  certificateStatus,
  decodeCertificate,
  encodeCertificate,
  isCertificateVersionAllowed,
  maxCertificateSize,
  type PearlCertificate,
  PLACEHOLDER_COMMITMENT,
  readCertificate,
} from './pearl/certificate.js';
export {
  GRAINS_PER_PRL,
  PEARL_EMISSION_CONSTANT,
  PEARL_EMISSION_FORMULA,
  PEARL_TOTAL_SUPPLY,
  pearlEmitted,
  pearlSubsidy,
} from './pearl/emission.js';
export {
  type DecodedPearlHeader,
  encodePearlHeader,
  PEARL_HEADER_SIZE,
  PEARL_INCOMPLETE_HEADER_SIZE,
  type PearlHeader,
  pearlHeaderHash,
  readPearlHeader,
} from './pearl/header.js';
export {
  type HdVersions,
  PEARL_MAX_BLOCK_VSIZE,
  PEARL_NETWORKS,
  PEARL_TARGET_BLOCK_SECONDS,
  type PearlForks,
  type PearlNetwork,
  type PearlNetworkName,
  pearlNetworkByName,
  pearlNetworksByGenesis,
  requiredCertificateVersion,
} from './pearl/params.js';
export {
  DENSE_PUBLIC_DATA_SIZE,
  type DensePublicData,
  decodeDensePublicData,
  isMoePublicData,
  MIN_MOE_PUBLIC_DATA_SIZE,
  type MiningConfig,
  type MoeRouting,
  type PatternDim,
  type PeriodicPattern,
  patternIndices,
} from './pearl/public-data.js';
export {
  type BlockPlacement,
  grainsToPrl,
  type KnownScript,
  renderPearlBlock,
  renderPearlHeader,
  renderPearlScriptPubKey,
  renderPearlTx,
  type TxPlacement,
} from './pearl/render.js';
export {
  type PearlScriptType,
  p2mrScript,
  p2trScript,
  pearlAddressScript,
  pearlScriptAddress,
  pearlScriptType,
} from './pearl/script.js';
export {
  type AsmStyle,
  esploraAsm,
  OPCODE_NAMES,
  type ScriptOp,
  scriptAsm,
  scriptOps,
} from './script-asm.js';
export {
  type DecodedTx,
  decodeTx,
  type EncodedTx,
  encodeTx,
  hasWitness,
  isCoinbaseInput,
  merkleRoot,
  readTx,
  serializeTx,
  type Tx,
  type TxInput,
  type TxOutput,
  type TxSizes,
  txSizes,
} from './tx.js';
export {
  type AddressJob,
  type DerivedAddress,
  type DeriveRange,
  deriveAddresses,
  deriveAddressTexts,
  MAX_DERIVE_COUNT,
} from './wallet/derive.js';
export {
  checkDescriptorChecksum,
  type KeyOrigin,
  type ParsedDescriptor,
  parseDescriptor,
} from './wallet/descriptor.js';
export { descriptorChecksum } from './wallet/descriptor-checksum.js';
export { WalletKeyError, type WalletKeyErrorCode } from './wallet/errors.js';
export { KNOWN_VERSIONS, type KnownVersion, type WalletScript } from './wallet/extended-key.js';
export { secp256k1Backend } from './wallet/secp256k1.js';
export { taprootOutputKey } from './wallet/taproot.js';
export { coreWalletChain, pearlWalletChain, type WalletChain } from './wallet/wallet-chain.js';
export { acceptedVersions, parseWalletKey, WalletKey } from './wallet/wallet-key.js';
