export { bitcoinProfile } from './bitcoin.js';
export { type ChainSelection, defaultRpcPort, detectChain } from './detect.js';
export { PEARLD_UNSUPPORTED_CALLS, parseCertificate, pearlProfile } from './pearl.js';
export {
  type ChainAddresses,
  type ChainInfo,
  type ChainProfile,
  ChainProfileError,
  type ChainProfileName,
} from './profile.js';
