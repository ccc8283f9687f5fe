import { parseTierLimits } from '@explorer/core';
import { z } from 'zod';

/**
 * What a setting accepts: a schema from the text of a variable or flag to its value. A rejected text becomes
 * one issue whose message is the problem in words (`must be …`); the schema's description says what it
 * accepts, for --help and the documentation.
 */
export type ValueKind<T> = z.ZodType<T, string>;

/** Thrown by a kind's parser: the problem, said after the variable's name. */
class Invalid extends Error {}

/** A value as messages show it: in quotes, cut at 80 characters. */
export const quote = (raw: string): string => JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);

const alternatives = (words: readonly string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');

function kind<T>(values: string, parse: (raw: string) => T): ValueKind<T> {
  return z
    .string()
    .transform((raw, ctx) => {
      try {
        return parse(raw);
      } catch (err) {
        if (!(err instanceof Invalid)) throw err;
        ctx.issues.push({ code: 'custom', message: err.message, input: raw });
        return z.NEVER;
      }
    })
    .describe(values);
}

const MAX = Number.MAX_SAFE_INTEGER;

/**
 * A whole number from `min` to `max` (unbounded above by default), written in digits only.
 * @example int(0, 65_535)
 */
export const int = (min: number, max = MAX): ValueKind<number> => {
  const range = max === MAX ? `of at least ${min}` : `from ${min} to ${max}`;
  return kind(max === MAX ? `integer ≥ ${min}` : `integer ${min}–${max}`, (raw) => {
    const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new Invalid(`must be an integer ${range} (got ${quote(raw)})`);
    return n;
  });
};

/** A TCP port (`0` for a free one), or `off` for none. */
export const portOrOff: ValueKind<number | null> = kind('integer 0–65535, or `off`', (raw) => {
  const v = raw.trim().toLowerCase();
  if (v === 'off') return null;
  const n = /^\d{1,5}$/.test(v) ? Number(v) : Number.NaN;
  if (!(n <= 65_535)) throw new Invalid(`must be off or a port from 0 to 65535 (got ${quote(raw)})`);
  return n;
});

/** A URL path prefix (`/api`, `/esplora/api`), or `off` for none; never under `/v1`, the explorer's own. */
export const pathPrefixOrOff: ValueKind<string | null> = kind('a path such as `/api`, or `off`', (raw) => {
  const v = raw.trim();
  if (v.toLowerCase() === 'off') return null;
  const prefix = v.replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix))
    throw new Invalid(`must be off or a path such as /api (got ${quote(raw)})`);
  if (prefix === '/v1' || prefix.startsWith('/v1/') || prefix === '/docs')
    throw new Invalid(`must not be ${prefix}: the explorer serves its own API there`);
  return prefix;
});

/** Any text but blank, trimmed. It is never echoed in a message, so secrets may be text. */
export const text: ValueKind<string> = kind('', (raw) => {
  const v = raw.trim();
  if (v === '') throw new Invalid('must not be empty');
  return v;
});

/** `true`/`false`, also `1`/`0`, `yes`/`no`, `on`/`off`, in any case. */
export const bool: ValueKind<boolean> = kind('`true` or `false`', (raw) => {
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new Invalid(`must be true or false (got ${quote(raw)})`);
});

/**
 * A URL with one of the protocols. URLs may carry passwords: a rejected one is described, never echoed.
 * @example url(['redis:', 'rediss:'])
 */
export const url = (protocols: readonly string[]): ValueKind<string> => {
  const article = /^(?:[aeiou]|http)/.test(protocols[0] ?? '') ? 'an' : 'a';
  const what = `${article} ${alternatives(protocols.map((p) => `${p}//`))} URL`;
  return kind(`${alternatives(protocols.map((p) => `\`${p}//\``))} URL`, (raw) => {
    let u: URL;
    try {
      u = new URL(raw.trim());
    } catch {
      throw new Invalid(`must be ${what} (got a value that is not a URL)`);
    }
    if (!protocols.includes(u.protocol))
      throw new Invalid(`must be ${what} (got a ${u.protocol.replace(/:$/, '')}: URL)`);
    return raw.trim();
  });
};

/**
 * One of a few words, in any case.
 * @example oneOf(['pearl', 'bitcoin'] as const)
 */
export const oneOf = <T extends string>(words: readonly T[]): ValueKind<T> =>
  kind(alternatives(words.map((w) => `\`${w}\``)), (raw) => {
    const v = raw.trim().toLowerCase();
    if ((words as readonly string[]).includes(v)) return v as T;
    throw new Invalid(`must be one of ${words.join(', ')} (got ${quote(raw)})`);
  });

/**
 * Text matching a pattern, trimmed; `what` names it in the message, e.g. `a lowercase provider coin id`.
 * @example matching(/^[A-Za-z0-9-]{1,100}$/, 'an HTTP header name', 'HTTP header name')
 */
export const matching = (pattern: RegExp, what: string, values: string): ValueKind<string> =>
  kind(values, (raw) => {
    const v = raw.trim();
    if (!pattern.test(v)) throw new Invalid(`must be ${what} (got ${quote(raw)})`);
    return v;
  });

/**
 * A comma-separated list of words matching a pattern, lowercased, duplicates dropped, at least one.
 * @example wordList(/^[a-z]{2,10}$/, 'currency codes, e.g. usd,eur', 'currency codes')
 */
export const wordList = (pattern: RegExp, what: string, values: string): ValueKind<string[]> =>
  kind(`${values}, comma-separated`, (raw) => {
    const words = [
      ...new Set(
        raw
          .split(',')
          .map((w) => w.trim().toLowerCase())
          .filter(Boolean),
      ),
    ];
    if (words.length === 0 || words.some((w) => !pattern.test(w)))
      throw new Invalid(`must be a comma-separated list of ${what} (got ${quote(raw)})`);
    return words;
  });

/** Requests per window by key tier: `pro:6000,partner:20000`. */
export const tierLimits: ValueKind<Record<string, number>> = kind(
  '`<tier>:<requests>`, comma-separated (tiers `a–z 0–9 _ -`)',
  (raw) => {
    try {
      return parseTierLimits(raw);
    } catch (err) {
      throw new Invalid((err as Error).message);
    }
  },
);
