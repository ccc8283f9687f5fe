import { SETTINGS } from './index.js';

/** Variables of ours that are not the server's settings: the explorer CLI's, and the build's. */
const READ_ELSEWHERE = new Set(['EXPLORER_BASE_URL', 'EXPLORER_API_KEY', 'EXPLORER_SKIP_DTS']);

/**
 * Kubernetes' service links (`REDIS_SERVICE_HOST`, `REDIS_PORT=tcp://…`, `REDIS_PORT_6379_TCP_ADDR`): set for
 * every service in the namespace, so a service named like a prefix of ours would otherwise be reported.
 */
function isServiceLink(name: string, value: string): boolean {
  return (
    /_SERVICE_(?:HOST|PORT)(?:_|$)|_PORT_\d+_(?:TCP|UDP|SCTP)(?:_|$)/.test(name) ||
    (/_PORT$/.test(name) && /^(?:tcp|udp|sctp):\/\//.test(value))
  );
}

/**
 * Edits (insertions, deletions, substitutions, swaps of neighbours) between two names.
 * @example editDistance('PROT', 'PORT') // 1
 */
export function editDistance(a: string, b: string): number {
  // Optimal string alignment: Levenshtein plus one transposition, three rows kept.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The prefixes that mark a variable as meant for us, from the settings' own names: the first word of each
 * name of more than one word, widened to the words every setting starting with it shares (`NODE_RPC_`, not
 * `NODE_`, which Node.js itself uses).
 * @example settingPrefixes(['NODE_RPC_URL', 'NODE_RPC_CERT', 'DB_POOL_SIZE']) // ['DB_', 'NODE_RPC_']
 */
export function settingPrefixes(names: readonly string[] = settingNames()): string[] {
  const groups = new Map<string, string[][]>();
  for (const name of names) {
    const words = name.split('_');
    if (words.length < 2) continue;
    groups.set(words[0]!, [...(groups.get(words[0]!) ?? []), words]);
  }
  const prefixes = [...groups.values()].map((members) => {
    const shared = [members[0]![0]!];
    // Widen while every member has one more word in common, leaving each at least one word of its own.
    for (
      let i = 1;
      members.length > 1 && members.every((m) => m.length > i + 1 && m[i] === members[0]![i]);
      i++
    )
      shared.push(members[0]![i]!);
    return `${shared.join('_')}_`;
  });
  return prefixes.sort();
}

function settingNames(): string[] {
  return SETTINGS.flatMap((s) => (s.env ? [s.env] : []));
}

/** The setting a mistyped or misremembered name most likely meant, if one is close. */
function closest(name: string, names: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of names) {
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  if (!best) return null;
  if (best.distance <= Math.max(2, Math.floor(best.name.length / 3))) return best.name;
  // A name cut short or run on (`DB_POOL` for `DB_POOL_SIZE`) is far in edits but plain to see.
  return names.find((n) => n.startsWith(`${name}_`) || name.startsWith(`${n}_`)) ?? null;
}

/**
 * One warning line for each variable in `env` that looks meant for us — it starts with a prefix the settings
 * use, or is a typo or two away from a setting's name — but is no setting; with a suggestion when one is close.
 * Not an error: containers carry variables of other programs, and a misspelt name is better said than fatal.
 * @example unknownVariables({ EXPLORER_DATADIR: '/srv' }) // ['config: warning: EXPLORER_DATADIR is not a setting, ignored; did you mean EXPLORER_DATA_DIR?']
 */
export function unknownVariables(env: Record<string, string | undefined>): string[] {
  const names = settingNames();
  const known = new Set(names);
  const prefixes = settingPrefixes(names);
  const lines: string[] = [];
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value === undefined || known.has(name) || READ_ELSEWHERE.has(name) || isServiceLink(name, value))
      continue;
    const upper = name.toUpperCase();
    const typo = names.some((n) => {
      // Short names get fewer edits: HOME is two from HOST, and no typo of it.
      const edits = n.length >= 8 ? 2 : n.length >= 4 ? 1 : 0;
      return Math.abs(n.length - upper.length) <= edits && editDistance(upper, n) <= edits;
    });
    if (!typo && !prefixes.some((p) => upper.startsWith(p)) && !known.has(upper)) continue;
    const meant = closest(upper, names);
    lines.push(
      `config: warning: ${name} is not a setting, ignored${meant ? `; did you mean ${meant}?` : ''}`,
    );
  }
  return lines;
}
