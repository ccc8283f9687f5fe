import { describe, expect, it } from 'vitest';
import { hasValidAddressChecksum } from './address-checksum.js';

describe('hasValidAddressChecksum', () => {
  it('asks for an address shape before the checksum', () => {
    // A valid bech32 string, but 8 characters is no address.
    expect(hasValidAddressChecksum('a12uel5l')).toBe(false);
    expect(hasValidAddressChecksum('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(true);
    expect(hasValidAddressChecksum('LYhttvnKawAv6RcHQ4eBkNtifuiEA99PFe')).toBe(true);
    expect(hasValidAddressChecksum('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toBe(false);
  });
});
