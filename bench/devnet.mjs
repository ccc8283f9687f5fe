// Starts the devnet in a process of its own (so its CPU is measured apart) and waits for its JSON line.
import { startScript } from './lib.mjs';

/**
 * @param {string[]} args the devnet CLI's arguments (`--blocks`, `--dialect`…)
 * @returns {Promise<{ proc: import('node:child_process').ChildProcess, info: { url: string, poolsFile?: string, labelsFile?: string } }>}
 */
export async function startDevnetProcess(args) {
  // The whole line (up to its newline): a chunk may end inside it.
  const { proc, match } = await startScript(
    ['packages/devnet/dist/bin.js', '--port', '0', ...args],
    {},
    /^(\{.*)\n/m,
  );
  return { proc, info: JSON.parse(match[1]) };
}
