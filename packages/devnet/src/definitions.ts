import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KnownLabel, PoolDefinition } from './chain/pools.js';

/** File names used inside the definitions directory. */
export const DEFINITION_FILES = { pools: 'pools.json', labels: 'labels.json' } as const;

/** Writes pools.json (PoolDefinition[]) and labels.json (KnownLabel[]) into dir, creating it if needed. */
export function writeDefinitionFiles(
  dir: string,
  defs: { pools: PoolDefinition[]; labels: KnownLabel[] },
): { poolsFile: string; labelsFile: string } {
  mkdirSync(dir, { recursive: true });
  const poolsFile = join(dir, DEFINITION_FILES.pools);
  const labelsFile = join(dir, DEFINITION_FILES.labels);
  writeFileSync(poolsFile, `${JSON.stringify(defs.pools, null, 2)}\n`);
  writeFileSync(labelsFile, `${JSON.stringify(defs.labels, null, 2)}\n`);
  return { poolsFile, labelsFile };
}
