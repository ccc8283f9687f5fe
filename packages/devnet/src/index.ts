export type { KnownLabel, PoolDefinition } from './chain/pools.js';
export { NETWORK } from './chain/script.js';
export { DEFINITION_FILES } from './definitions.js';
export { createDevnet, type Devnet } from './devnet.js';
export type { DevnetOptions } from './options.js';
export { RpcError } from './rpc-error.js';
export type { ListenOptions, RpcServerHandle } from './rpc-server.js';
export type { ReorgOptions, ReorgResult } from './scenarios/reorg.js';
export type { AddressTruth, CertificateTruth, ChainTruth, ChainTruthData } from './truth.js';
