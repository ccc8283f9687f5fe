// How the scripts run pnpm on a machine that may have only Node and npm.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The pnpm the repository is developed with: package.json's packageManager. */
export const PNPM_VERSION = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).packageManager.replace(/^pnpm@/, '');

/** The command that runs pnpm 10: the installed one when it is 10, else pnpm fetched through npx. */
export function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.trim().startsWith('10.')) return ['pnpm'];
  return ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}
