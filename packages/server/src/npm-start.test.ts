import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm start` (scripts/run.mjs) says a configuration error in one line before anything else: never `ready`
// first and the error after.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const built = existsSync(`${root}packages/server/dist/bin.js`);
if (!built) console.log('[npm-start] the server is not built (run pnpm build): test skipped');

describe.skipIf(!built)('npm start refuses a bad configuration at once', () => {
  it('PORT=abc: the configuration error alone, exit 2 (a usage error), no "ready"', () => {
    const r = spawnSync(process.execPath, ['scripts/run.mjs', 'start'], {
      cwd: root,
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('config: PORT must be an integer from 0 to 65535 (got "abc")');
    expect(r.stdout).not.toMatch(/ready|listening/);
  });
});
