import { createHash } from 'node:crypto';
import type { DefinitionSource, DefinitionSources, StoredDefinitions } from '@explorer/db';
import { createDefinitions, type Definitions, type DefinitionsInput } from './pools.js';

/** The two kinds of definitions. */
type Kind = 'pools' | 'labels';

/** The definitions an indexer runs with, and what it has to record of them. */
export interface ResolvedDefinitions {
  definitions: Definitions;
  /** Where each kind came from, to record with them. */
  sources: DefinitionSources;
  /** Whether the stored definitions must be replaced: a kind given differs from the stored one (or its source does). */
  changed: boolean;
  /** Whether the blocks must be attributed again: the attribution rule differs from the one they were attributed with. */
  reattribute: boolean;
  /** The kinds taken from the database because none was given, with what is known of where they came from. */
  kept: { kind: Kind; count: number; source: DefinitionSource | null }[];
}

/** A digest of one kind's content: a file whose content changed is loaded again. */
const digestOf = (items: readonly unknown[]) =>
  createHash('sha256').update(JSON.stringify(items)).digest('hex');

/**
 * Merges the definitions given (from files) with those stored with the index: a kind given wins, and is
 * recorded with its source and the time it was loaded unless the same content from the same source is stored
 * already; a kind not given is the stored one (none when nothing is stored).
 * @example const r = resolveDefinitions(await loadDefinitions({}), await readStoredDefinitions(sql))
 */
export function resolveDefinitions(
  given: DefinitionsInput,
  stored: StoredDefinitions,
  now: Date = new Date(),
): ResolvedDefinitions {
  const pick = <K extends Kind>(kind: K) => {
    const items = given[kind];
    const before = stored.sources?.[kind] ?? null;
    if (items === undefined) {
      const list = stored[kind];
      // Definitions stored before their source was recorded are kept, saying that it is not known.
      const record =
        before ??
        (list.length > 0 ? { source: null, loadedAt: null, count: list.length, digest: null } : null);
      return { items: list, record, changed: false, kept: true };
    }
    const digest = digestOf(items);
    const source = given.sources?.[kind] ?? null;
    const same = before !== null && before.digest === digest && before.source === source;
    const record: DefinitionSource = same
      ? before
      : { source, loadedAt: now.toISOString(), count: items.length, digest };
    return { items: [...items], record, changed: !same, kept: false };
  };
  const pools = pick('pools');
  const labels = pick('labels');
  const definitions = createDefinitions(pools.items, labels.items);
  const reattribute = definitions.hash !== stored.hash;
  return {
    definitions,
    sources: { pools: pools.record, labels: labels.record },
    changed: pools.changed || labels.changed || reattribute,
    reattribute,
    kept: [
      ...(pools.kept ? [{ kind: 'pools' as const, count: pools.items.length, source: pools.record }] : []),
      ...(labels.kept
        ? [{ kind: 'labels' as const, count: labels.items.length, source: labels.record }]
        : []),
    ],
  };
}

/**
 * The one line that says which definitions were taken from the database rather than given, and where they came
 * from; null when every kind was given.
 * @example keptLine(resolved) // 'keeping the definitions stored with the index: 12 pools from pools.json, loaded …'
 */
export function keptLine(r: ResolvedDefinitions): string | null {
  if (r.kept.length === 0) return null;
  if (r.kept.every((k) => k.source === null)) {
    const names = r.kept.map((k) => (k.kind === 'pools' ? 'pool' : 'label')).join(' or ');
    const pools = r.kept.some((k) => k.kind === 'pools');
    return `no ${names} definitions given or stored with the index${pools ? ": every block's pool is unknown (its coinbase tag is still recorded)" : ''}`;
  }
  const parts = r.kept.map((k) =>
    k.source === null
      ? `no ${k.kind} (none given or stored)`
      : `${k.count} ${k.kind} from ${k.source.source ?? 'a source not recorded'}${k.source.loadedAt ? `, loaded ${k.source.loadedAt}` : ''}`,
  );
  return `keeping the definitions stored with the index: ${parts.join('; ')}`;
}
