// Starts the devnet in a process of its own (so its CPU is measured apart) and waits for its JSON line.
import { spawn } from 'node:child_process';

/**
 * @param {string[]} args the devnet CLI's arguments (`--blocks`, `--dialect`…)
 * @returns {Promise<{ proc: import('node:child_process').ChildProcess, info: { url: string, poolsFile?: string, labelsFile?: string } }>}
 */
export async function startDevnetProcess(args) {
  const proc = spawn(process.execPath, ['packages/devnet/dist/bin.js', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    proc.on('exit', (code) => reject(new Error(`devnet exited with ${code}`)));
  });
  return { proc, info };
}
