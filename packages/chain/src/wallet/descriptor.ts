import { descriptorChecksum } from './descriptor-checksum.js';
import { WalletKeyError } from './errors.js';
import type { WalletScript } from './extended-key.js';

/** A key expression's origin: the master key's fingerprint and the path from it to the key. */
export interface KeyOrigin {
  /** 8 hex characters, lower case. */
  fingerprint: string;
  /** Child numbers from the master key, hardened ones with 2^31 added. */
  path: number[];
}

/** A ranged single-key descriptor as this module reads it. */
export interface ParsedDescriptor {
  script: WalletScript;
  origin: KeyOrigin | null;
  /** The extended key as written. */
  key: string;
  /**
   * Unhardened steps after the key, one list per branch: one list without a multipath step, two (receive,
   * change) with `<a;b>`. Each is followed by the ranged `/*` step.
   */
  branches: number[][];
}

const HARDENED = 0x80000000;
const UNHARDENED = /^(0|[1-9]\d{0,9})$/;
const HARDENED_STEP = /^(0|[1-9]\d{0,9})[hH']$/;

function invalid(message: string): WalletKeyError {
  return new WalletKeyError('invalid-key', message);
}

function childNumber(text: string, where: string): number {
  const n = Number(text);
  if (!UNHARDENED.test(text) || n >= HARDENED) throw invalid(`${where}: '${text}' is not a child number`);
  return n;
}

/**
 * Splits off and checks a descriptor's `#checksum` (BIP380): when present it must be 8 characters and match;
 * a descriptor without one is read as it is.
 */
export function checkDescriptorChecksum(text: string): string {
  const hash = text.indexOf('#');
  const body = hash < 0 ? text : text.slice(0, hash);
  const computed = descriptorChecksum(body);
  if (computed === undefined)
    throw invalid('the descriptor holds a character outside the descriptor character set');
  if (hash < 0) return body;
  const given = text.slice(hash + 1);
  if (given.length !== 8) {
    throw new WalletKeyError(
      'bad-checksum',
      `expected an 8-character checksum after '#', not ${given.length} characters`,
    );
  }
  if (given !== computed) {
    throw new WalletKeyError(
      'bad-checksum',
      `the descriptor's checksum '${given}' does not match its text (computed '${computed}'): it was altered or mistyped`,
    );
  }
  return body;
}

function parseOrigin(text: string): KeyOrigin {
  const [fingerprint, ...steps] = text.split('/');
  if (!fingerprint || !/^[0-9a-fA-F]{8}$/.test(fingerprint)) {
    throw invalid('key origin: the fingerprint must be 8 hex characters');
  }
  const path = steps.map((s) => {
    if (HARDENED_STEP.test(s)) return childNumber(s.slice(0, -1), 'key origin') + HARDENED;
    return childNumber(s, 'key origin');
  });
  return { fingerprint: fingerprint.toLowerCase(), path };
}

function parseKeyExpression(text: string): Omit<ParsedDescriptor, 'script'> {
  let rest = text;
  let origin: KeyOrigin | null = null;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) throw invalid("key origin: no closing ']'");
    origin = parseOrigin(rest.slice(1, close));
    rest = rest.slice(close + 1);
  }
  const [key, ...steps] = rest.split('/');
  if (/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128}|[0-9a-fA-F]{64})$/.test(key ?? '')) {
    throw new WalletKeyError(
      'unsupported',
      'a single public key derives one address: send an extended public key (xpub) with a ranged path such as /0/*',
    );
  }
  if (!key || !/^[1-9A-HJ-NP-Za-km-z]+$/.test(key))
    throw invalid('expected an extended public key in the descriptor');
  const last = steps.at(-1);
  if (last === undefined || !/^\*[hH']?$/.test(last)) {
    throw new WalletKeyError(
      'unsupported',
      "the descriptor is not ranged: end the key's path in /* (e.g. xpub…/0/* or xpub…/<0;1>/*) so that it describes a run of addresses",
    );
  }
  const hardenedError = () =>
    new WalletKeyError(
      'hardened-step',
      'a hardened step after the extended public key cannot be derived without the private key: give the xpub of the hardened node instead (with its origin in [fingerprint/path])',
    );
  if (last !== '*') throw hardenedError();
  let multipath: number[] | null = null;
  let multipathAt = -1;
  const fixed: number[] = [];
  for (const [i, step] of steps.slice(0, -1).entries()) {
    if (HARDENED_STEP.test(step)) throw hardenedError();
    if (step.startsWith('<')) {
      if (multipath) throw invalid('a descriptor may hold one multipath step <a;b> only');
      if (!step.endsWith('>')) throw invalid(`'${step}' is not a multipath step`);
      const parts = step.slice(1, -1).split(';');
      if (parts.some((p) => HARDENED_STEP.test(p))) throw hardenedError();
      const values = parts.map((p) => childNumber(p, 'multipath step'));
      if (values.length !== 2) {
        throw new WalletKeyError(
          'unsupported',
          `a multipath step of ${values.length} paths: only <receive;change> is read, e.g. <0;1>`,
        );
      }
      if (values[0] === values[1]) throw invalid('the multipath step names one path twice');
      multipath = values;
      multipathAt = i;
      fixed.push(0);
      continue;
    }
    fixed.push(childNumber(step, 'derivation path'));
  }
  const branches = multipath
    ? multipath.map((m) => fixed.map((s, i) => (i === multipathAt ? m : s)))
    : [fixed];
  return { origin, key, branches };
}

/** True when every `(` of the text is closed by a later `)` and no `)` closes nothing. */
function parenthesesMatch(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

const SCRIPTS: readonly [RegExp, WalletScript][] = [
  [/^tr\((.*)\)$/s, 'tr'],
  [/^wpkh\((.*)\)$/s, 'wpkh'],
  [/^sh\(wpkh\((.*)\)\)$/s, 'sh-wpkh'],
  [/^pkh\((.*)\)$/s, 'pkh'],
];

/**
 * Reads a single-key ranged output descriptor: `tr(KEY)`, `wpkh(KEY)`, `sh(wpkh(KEY))` or `pkh(KEY)`, where KEY
 * is an optional origin `[fingerprint/path]`, an extended public key, unhardened steps with at most one
 * multipath step `<receive;change>`, and a final `/*`. A `#checksum` is checked when present.
 * @example parseDescriptor("tr([73c5da0a/86'/0'/0']xpub6BgB…/<0;1>/*)")
 */
export function parseDescriptor(text: string): ParsedDescriptor {
  const body = checkDescriptorChecksum(text.trim());
  if (!parenthesesMatch(body)) {
    throw invalid(
      'not a descriptor: its parentheses do not match; write tr(KEY), wpkh(KEY), sh(wpkh(KEY)) or pkh(KEY), with KEY an extended public key',
    );
  }
  for (const [re, script] of SCRIPTS) {
    const m = re.exec(body);
    if (!m) continue;
    const inner = m[1] as string;
    if (script === 'tr' && inner.includes(',')) {
      throw new WalletKeyError(
        'unsupported',
        'taproot descriptors with a script tree are not read: only tr(KEY) (BIP86, key path only)',
      );
    }
    return { script, ...parseKeyExpression(inner) };
  }
  const fn = /^([a-z_]+)\(/.exec(body)?.[1];
  throw new WalletKeyError(
    fn ? 'unsupported' : 'invalid-key',
    fn
      ? `${fn}() descriptors are not read: only tr(KEY), wpkh(KEY), sh(wpkh(KEY)) and pkh(KEY) with one extended public key`
      : 'not a descriptor or an extended public key',
  );
}
