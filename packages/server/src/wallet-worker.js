// A thread of the wallet derivation pool (wallet-pool.ts) runs this file. It is plain JavaScript so that the
// built server and the tests that run the server from its source start the same file; @explorer/chain resolves
// to that package's build.
export { deriveAddressTexts as default } from '@explorer/chain';
