import { coreNetworksByChain, coreWalletChain, PEARL_NETWORKS, pearlWalletChain } from '@explorer/chain';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../errors.js';
import type { ChainIdentity } from '../schemas/chain.js';
import { walletChainOf } from './wallet-chain.js';

const base: ChainIdentity = {
  profile: 'bitcoin',
  network: 'regtest',
  name: 'Litecoin regtest',
  genesisHash: '0'.repeat(64),
  knownGenesis: true,
  units: { symbol: 'tLTC', baseUnit: 'litoshi', decimals: 8 },
  addresses: {
    bech32Hrp: 'rltc',
    mwebHrp: 'tmweb',
    base58: { pubkeyHash: 111, scriptHash: 58, legacyScriptHash: 196 },
  },
  emissionFormula: null,
  maxSupply: null,
  certificateForks: null,
  unsupportedCalls: [],
};

describe('walletChainOf', () => {
  it('describes a known Core network as the tables do', () => {
    const litecoin = coreNetworksByChain('regtest', 'litecoin')[0]!;
    const { name: _n, ...chain } = walletChainOf(base);
    const { name: _m, ...expected } = coreWalletChain(litecoin);
    expect(chain).toEqual({ ...expected, hd: { ...expected.hd, coinType: 1 } });
    expect(walletChainOf({ ...base, network: 'main', name: 'Litecoin' }).hd.public).toBe(0x0488b21e);
  });

  it('describes a Pearl network the tables do not know (the devnet) from what was recorded', () => {
    const pearl = { ...base, profile: 'pearl', network: 'regtest', name: 'Pearl regtest' };
    const rp = { ...pearl, addresses: { bech32Hrp: 'rprl', mwebHrp: null, base58: null } };
    expect(walletChainOf(rp)).toEqual(pearlWalletChain(PEARL_NETWORKS.regtest));
    const devnet = walletChainOf({ ...rp, network: 'pearl-devnet', name: null });
    expect(devnet).toMatchObject({
      family: 'pearl',
      testnet: true,
      bech32Hrp: 'rprl',
      hd: PEARL_NETWORKS.regtest.hd,
    });
  });

  it('refuses a chain whose prefixes were not recorded, and an index with no chain yet', () => {
    expect(() => walletChainOf({ ...base, addresses: null, name: null, network: 'devnet' })).toThrow(
      new BadRequestError(
        'key: the address prefixes of the indexed chain (devnet) are not known, so no address can be derived for it',
      ),
    );
    expect(() => walletChainOf(null)).toThrow(/nothing is indexed yet/);
  });
});
