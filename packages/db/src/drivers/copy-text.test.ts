import { describe, expect, it } from 'vitest';
import { copyText, copyValue } from './copy-text.js';

describe('COPY text', () => {
  it('escapes backslashes and control characters, and writes bytes in hex input as the bulk rows give them', () => {
    expect(copyValue('plain')).toBe('plain');
    expect(copyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    // A bytea column's hex input: its one backslash doubled.
    expect(copyValue('\\x00ff')).toBe('\\\\x00ff');
    // Text that merely starts like it is escaped whole.
    expect(copyValue('\\x\\y')).toBe('\\\\x\\\\y');
    expect(copyValue('\\x0\t1')).toBe('\\\\x0\\t1');
    expect(copyValue(new Uint8Array([0, 255]))).toBe('\\\\x00ff');
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue(12n)).toBe('12');
  });

  it('writes rows as tab-separated lines', () => {
    expect(
      [
        ...copyText([
          ['a', 1, null],
          ['\\x01', true, 2n],
        ]),
      ].join(''),
    ).toBe('a\t1\t\\N\n\\\\x01\tt\t2\n');
  });
});
