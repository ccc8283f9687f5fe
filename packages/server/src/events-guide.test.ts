import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir, TEST_SERVER_SETTINGS } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type Started, startProcess, stopProcess } from './test-support/processes.js';

// docs/events.md's WebSocket script runs as written on the oldest Node.js the packages support (20.19, which
// has no global WebSocket), against a started server: only its address is changed, to the server's.
const serverBin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const reason = existsSync(serverBin) ? null : 'the server is not built (run pnpm build)';
if (reason) console.log(`[events-guide] ${reason}: test skipped`);

/** The first `js` block of a section of docs/events.md. */
function script(section: string): string {
  const guide = readFileSync(new URL('../../../docs/events.md', import.meta.url), 'utf8');
  const at = guide.indexOf(`\n## ${section}`);
  const m = /```js\n([\s\S]*?)```/.exec(guide.slice(at, guide.indexOf('\n## ', at + 1)));
  if (at < 0 || !m) throw new Error(`docs/events.md has no js block under "${section}"`);
  return m[1]!;
}

const work = mkdtempSync(join(tmpdir(), 'explorer-events-guide-'));
const started: Started[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await stopProcess(s.proc);
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(reason !== null)('docs/events.md', () => {
  it('the WebSocket script, with `ws` installed as it says, prints blocks from a started server', async () => {
    const server = await startProcess(
      [serverBin, 'start'],
      {
        PORT: '0',
        EXPLORER_DATA_DIR: await seedDataDir(join(work, 'data')),
        DEVNET_BLOCKS: '5',
        DEVNET_INTERVAL_MS: '200',
        LOG_LEVEL: 'warn',
        ...TEST_SERVER_SETTINGS,
      },
      /listening on http:\/\/(\S+)/,
    );
    started.push(server);
    // `npm install ws` beside the script: the server's own copy stands in for it.
    const ws = dirname(createRequire(serverBin).resolve('ws/package.json'));
    mkdirSync(join(work, 'node_modules'));
    symlinkSync(ws, join(work, 'node_modules/ws'));
    const code = script('WebSocket');
    expect(code).toContain("from 'ws'");
    writeFileSync(join(work, 'watch.mjs'), code.replace('127.0.0.1:3000', server.match[1]!));
    const watch = await startProcess(['watch.mjs'], {}, /^block (\d+)$/m, { cwd: work });
    started.push(watch);
    // Blocks indexed after it subscribed arrive as events, the first of the devnet's too.
    expect(watch.match[0]).toMatch(/^block \d+$/);
    expect(watch.proc.exitCode).toBeNull();
  });
});
