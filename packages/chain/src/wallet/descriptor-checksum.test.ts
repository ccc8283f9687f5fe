import { describe, expect, it } from 'vitest';
import { checkDescriptorChecksum } from './descriptor.js';
import { descriptorChecksum } from './descriptor-checksum.js';

// Bitcoin Core's descriptor_tests.cpp ("Checksums"): the same multisig descriptor with xprv and xpub keys.
const CORE_PRV =
  "sh(multi(2,[00000000/111'/222]xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTjSyQbLYnMpCqE2VbFWc,xprv9uPDJpEQgRQfDcW7BkF7eTya6RPxXeJCqCJGHuCJ4GiRVLzkTXBAJMu2qaMWPrS7AANYqdq6vcBcBUdJCVVFceUvJFjaPdGZ2y9WACViL4L/0))";
const CORE_PUB =
  "sh(multi(2,[00000000/111'/222]xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL,xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y/0))";

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'no error';
};

describe('descriptor checksum (BIP380)', () => {
  it('computes the checksums of BIP380 and Bitcoin Core', () => {
    expect(descriptorChecksum('raw(deadbeef)')).toBe('89f8spxm');
    expect(descriptorChecksum(CORE_PRV)).toBe('ggrsrxfy');
    expect(descriptorChecksum(CORE_PUB)).toBe('tjg09x5t');
    // A descriptor rust-miniscript's tests carry with its checksum.
    expect(
      descriptorChecksum(
        "wpkh([2cbe2a6d/44'/0'/0']tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz/0/*)",
      ),
    ).toBe('nhdxg96s');
  });

  it('accepts a matching checksum and none, and refuses BIP380’s invalid cases', () => {
    expect(checkDescriptorChecksum('raw(deadbeef)#89f8spxm')).toBe('raw(deadbeef)');
    expect(checkDescriptorChecksum('raw(deadbeef)')).toBe('raw(deadbeef)');
    expect(checkDescriptorChecksum(`${CORE_PUB}#tjg09x5t`)).toBe(CORE_PUB);
    // Missing, too long, too short; an error in the payload; an error in the checksum.
    expect(code(() => checkDescriptorChecksum('raw(deadbeef)#'))).toBe('bad-checksum');
    expect(code(() => checkDescriptorChecksum('raw(deadbeef)#89f8spxmx'))).toBe('bad-checksum');
    expect(code(() => checkDescriptorChecksum('raw(deadbeef)#89f8spx'))).toBe('bad-checksum');
    expect(code(() => checkDescriptorChecksum('raw(deedbeef)#89f8spxm'))).toBe('bad-checksum');
    expect(code(() => checkDescriptorChecksum('raw(deedbeef)##9f8spxm'))).toBe('bad-checksum');
    expect(code(() => checkDescriptorChecksum(`${CORE_PUB.replace('multi(2', 'multi(3')}#tjg09x5t`))).toBe(
      'bad-checksum',
    );
    expect(code(() => checkDescriptorChecksum(`${CORE_PUB}#tjq09x5t`))).toBe('bad-checksum');
    // A character outside the descriptor character set.
    expect(code(() => checkDescriptorChecksum('raw(Ü)#00000000'))).toBe('invalid-key');
  });
});
