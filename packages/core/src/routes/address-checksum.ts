import { hasValidChecksum } from '@explorer/chain';

// Address checksums: a valid address never used still resolves (to its empty address page); junk does not.

/** What an address looks like before its checksum is checked: 14–130 letters and digits. */
export const ADDRESS_SHAPE = /^[A-Za-z0-9]{14,130}$/;

/** True when `text` is an address by its own checksum (bech32/bech32m or Base58Check, any HRP or version). */
export const hasValidAddressChecksum = (text: string) => ADDRESS_SHAPE.test(text) && hasValidChecksum(text);
