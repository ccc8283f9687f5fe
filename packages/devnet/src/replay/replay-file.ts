import { readFileSync } from 'node:fs';

/**
 * The blocks of a replay file: `{ "blocks": [hex…] }` (as the test vectors keep a real node's) or a bare array.
 * @throws Error naming the file when it holds neither.
 */
export function readReplayFile(file: string): string[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const blocks = Array.isArray(parsed) ? parsed : (parsed as { blocks?: unknown } | null)?.blocks;
  if (!Array.isArray(blocks) || !blocks.every((b) => typeof b === 'string'))
    throw new Error(`${file}: expected { "blocks": [hex, …] } or [hex, …]`);
  return blocks;
}
