import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { createDemoProvider, createMarketRefresher } from '@explorer/indexer';
import { blockEvents, serveEventStream, serveFetch, type TestServer } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSlowList } from './test-support/serve.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(root, 'packages/cli/dist/bin.js');

// The tests run the built bin, as users do; without a build there is nothing to test. The bin imports the
// SDK's build. Both are rebuilt only when their sources changed (a rebuild pulls dist/ from under the other
// tests that use it), with declarations, by the script the packaging test uses too.
let buildError: string | null = null;
try {
  execFileSync(
    process.execPath,
    [join(root, 'scripts/build-stale.mjs'), 'cli', 'client', '--no-declarations'],
    {
      cwd: root,
      stdio: 'pipe',
    },
  );
} catch (err) {
  buildError = `${(err as Error).message}\n${(err as { stderr?: Buffer }).stderr?.toString() ?? ''}`;
  console.warn(`[cli] skipping the bin tests: the build failed:\n${buildError}`);
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built bin with args; `onStdout` sees stdout as it grows (and may signal the child). */
function run(
  args: string[],
  opts: {
    baseUrl?: string;
    env?: Record<string, string>;
    onStdout?: (text: string, kill: () => void) => void;
    /** Another command than `node <bin>`, e.g. npm. */
    command?: [string, ...string[]];
  } = {},
): Promise<Run> {
  // The caller's own settings must not leak in: only what the test passes counts.
  const { EXPLORER_API_KEY: _key, EXPLORER_BASE_URL: _url, ...inherited } = process.env;
  const env = { ...inherited, ...(opts.baseUrl ? { EXPLORER_BASE_URL: opts.baseUrl } : {}), ...opts.env };
  const [command, ...first] = opts.command ?? [process.execPath, BIN];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...first, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      opts.onStdout?.(stdout, () => child.kill('SIGINT'));
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

describe.skipIf(buildError !== null)('explorer bin against the contract fixture (pglite)', () => {
  let f: ChainFixture;
  let server: TestServer;
  let url: string;
  const cli = (...args: string[]) => run(args, { baseUrl: url });
  /** The API's own answer without ok/meta. */
  const data = async (path: string) => {
    const { ok: _ok, meta: _meta, ...rest } = (await f.get(path)).body;
    return rest;
  };

  beforeAll(async () => {
    f = await createChainFixture('pglite');
    const refresher = createMarketRefresher({
      sql: f.db.sql,
      provider: createDemoProvider({ seed: 'cli' }),
      vsCurrencies: ['usd'],
      chartDays: [7],
    });
    expect((await refresher.refreshOnce()).ok).toBe(true);
    server = await serveFetch((req) => f.api.handle(req));
    url = server.url;
  });

  afterAll(async () => {
    await server?.close();
    await f?.close();
  });

  it('blocks --limit 5 --json prints exactly the API’s answer without ok/meta', async () => {
    const r = await cli('blocks', '--limit', '5', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const expected = await data('/v1/blocks?limit=5');
    expect((expected.blocks as unknown[]).length).toBe(5);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it('prints JSON when stdout is not a terminal and no format flag is given', async () => {
    const r = await cli('blocks', '--limit', '2');
    expect(JSON.parse(r.stdout)).toEqual(await data('/v1/blocks?limit=2'));
  });

  it('block <height> --table shows the full hash, the time in ISO and the reward in coins', async () => {
    const { block } = await data('/v1/blocks/42');
    const r = await cli('block', '42', '--table');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(block.hash);
    expect(r.stdout).toContain(new Date(block.time * 1000).toISOString().replace('.000Z', 'Z'));
    const reward = BigInt(block.reward);
    const coins = `${reward / 100_000_000n}.${String(reward % 100_000_000n).padStart(8, '0')}`;
    expect(r.stdout).toMatch(new RegExp(`reward\\s+${coins.replace('.', '\\.')}`));
    const units = await cli('block', '42', '--table', '--base-units');
    expect(units.stdout).toMatch(new RegExp(`reward\\s+${block.reward}\\b`));
  });

  it('blocks --table lists one row per block with a shortened hash', async () => {
    const { blocks } = await data('/v1/blocks?limit=3');
    const r = await cli('blocks', '--limit', '3', '--table');
    const out = lines(r.stdout);
    expect(out[0]).toMatch(/^height\s+time\s+hash\s+txs\s+size\s+pool\s+reward$/);
    expect(out).toHaveLength(4);
    expect(out[1]).toContain(`${blocks[0].hash.slice(0, 8)}…${blocks[0].hash.slice(-8)}`);
    expect(r.stderr).toMatch(/more rows: --cursor \S+/);
  });

  it('address <busy> txs --all --ndjson yields exactly txCount lines, without duplicates', async () => {
    const top = (await data('/v1/miners/top?limit=1')).miners[0].address as string;
    const { address } = await data(`/v1/addresses/${top}`);
    expect(address.txCount).toBeGreaterThan(20);
    // Small pages: many cursors are followed.
    const r = await cli('address', top, 'txs', '--all', '--ndjson', '--limit', '7');
    expect(r.code).toBe(0);
    const rows = lines(r.stdout).map((l) => JSON.parse(l));
    expect(rows).toHaveLength(address.txCount);
    expect(new Set(rows.map((t) => t.txid)).size).toBe(address.txCount);
  });

  it('addresses txs <a> <b> --all --ndjson yields the two histories merged, each transaction once', async () => {
    const [a, b] = ((await data('/v1/miners/top?limit=2')).miners as { address: string }[]).map(
      (m) => m.address,
    );
    const txids = new Set<string>();
    for (const address of [a, b]) {
      const r = await cli('address', address!, 'txs', '--all', '--ndjson');
      for (const l of lines(r.stdout)) txids.add(JSON.parse(l).txid);
    }
    const r = await cli('addresses', 'txs', a!, b!, '--all', '--ndjson', '--limit', '9');
    expect(r.code).toBe(0);
    const rows = lines(r.stdout).map((l) => JSON.parse(l));
    expect(rows.map((t) => t.txid).sort()).toEqual([...txids].sort());
  });

  it('wallet <descriptor> shows the summary; utxos --gap n lists them; a private key is refused before any request, exit 4', async () => {
    const tpub =
      'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
    const descriptor = `tr([2cbe2a6d/86'/1'/0']${tpub}/<0;1>/*)`;
    const summary = await cli('wallet', descriptor, '--gap', '4', '--json');
    expect(summary.code).toBe(0);
    const wallet = JSON.parse(summary.stdout);
    expect(wallet).toMatchObject({ gap: 4, derived: 8, used: [], balance: '0' });
    expect(wallet.firstUnused.receive.path).toBe("m/86'/1'/0'/0/0");
    const table = await cli('wallet', tpub);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/descriptor/);
    const utxos = await cli('wallet', tpub, 'utxos', '--gap', '3', '--all', '--ndjson');
    expect(utxos.code).toBe(0);
    expect(lines(utxos.stdout)).toEqual([]);
    const tprv =
      'tprv8ZgxMBicQKsPd7Uf69XL1XwhmjHopUGep8GuEiJDZmbQz6o58LninorQAfcKZWARbtRtfnLcJ5MQ2AtHcQJCCRUcMRvmDUjyEmNUWwx8UbK';
    // Refused before any request: a server that is not there is never asked (that would exit 8).
    for (const argv of [
      ['wallet', tprv],
      ['wallet', `tr(${tprv}/0/*)`, 'txs'],
      ['wallet', tprv, 'utxos'],
    ]) {
      const refused = await run(argv, { baseUrl: 'http://127.0.0.1:2' });
      expect(refused.code, argv.join(' ')).toBe(4);
      expect(refused.stderr).toBe(
        "error: key: this tprv is a private key: never send private keys (they spend the coins); send the extended public key (xpub, tpub, or the zpub/vpub Pearl's wallet shows) or a descriptor holding one instead\n",
      );
    }
  });

  it('--all --json streams one valid JSON document; --max 7 stops at 7 rows', async () => {
    const json = await cli('blocks', '--all', '--json', '--limit', '50');
    const doc = JSON.parse(json.stdout);
    expect(doc.blocks).toHaveLength(121);
    expect(doc.blocks.map((b: { height: number }) => b.height)).toEqual(
      Array.from({ length: 121 }, (_, i) => 120 - i),
    );
    const max = await cli('blocks', '--all', '--max', '7', '--ndjson', '--limit', '3');
    expect(max.code).toBe(0);
    expect(lines(max.stdout).map((l) => JSON.parse(l).height)).toEqual([120, 119, 118, 117, 116, 115, 114]);
    const table = await cli('blocks', '--all', '--max', '7', '--table', '--limit', '3');
    expect(lines(table.stdout)).toHaveLength(8);
  });

  it('tx <zero txid> exits 3 with the message and the requestId on stderr', async () => {
    const zero = '0'.repeat(64);
    const r = await cli('tx', zero);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toMatch(
      new RegExp(`^error: transaction ${zero} not found \\(requestId [\\w.:-]+\\)$`),
    );
  });

  it('exit codes: 4 for a bad request, 8 for an unreachable server, 2 for usage errors', async () => {
    const bad = await cli('blocks', '--limit', '0');
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/^error: limit must be an integer from 1 to 100 \(requestId /);
    // Port 2 on loopback: nothing listens there, and unlike a just-freed ephemeral port nothing else can take
    // it (port 1 would do too, but fetch refuses it as a blocked port before connecting).
    const down = await run(['status', '--timeout', '2000'], { baseUrl: 'http://127.0.0.1:2' });
    expect(down.code).toBe(8);
    expect(down.stderr).toMatch(
      /^error: could not reach http:\/\/127\.0\.0\.1:2\/v1\/status: fetch failed \(.*ECONNREFUSED.*\)\n$/,
    );
    expect((await cli('block', '1', 'nope')).code).toBe(2);
    expect((await cli('blocks', '--max', '3')).code).toBe(2);
    expect((await cli('status', '--limit', '3')).code).toBe(2);
    expect((await cli('block', '1', '--proof')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('blocks', '--json', '--ndjson')).code).toBe(2);
  });

  it('sends the API key as X-API-Key and never prints it', async () => {
    const r = await run(['me', '--json'], {
      baseUrl: url,
      env: { EXPLORER_API_KEY: 'ek_secret_never_shown' },
    });
    // The fixture has no key store, so any key is refused with 401.
    expect(r.code).toBe(5);
    expect(r.stdout + r.stderr).not.toContain('ek_secret_never_shown');
  });

  it('prints a transaction status’s blockTime as an ISO time, as every table prints times', async () => {
    const { txs } = await data('/v1/txs?limit=1');
    const { status } = await data(`/v1/txs/${txs[0].txid}/status`);
    const r = await cli('tx', txs[0].txid, 'status', '--table');
    expect(r.code).toBe(0);
    const iso = new Date(status.blockTime * 1000).toISOString().replace('.000Z', 'Z');
    expect(r.stdout).toMatch(new RegExp(`^blockTime\\s+${iso}$`, 'm'));
  });

  // About 45 processes, ten at a time: a minute is not enough when the machine's cores are busy elsewhere.
  it('every command answers with exit 0 on the fixture', async () => {
    const [{ txs }, { miners }, { pools }, { block }] = await Promise.all([
      data('/v1/txs?limit=1'),
      data('/v1/miners/top?limit=1'),
      data('/v1/pools/top?window=all&limit=1'),
      data('/v1/blocks/60'),
    ]);
    const txid = txs[0].txid as string;
    const addr = miners[0].address as string;
    const pool = pools[0].id as string;
    const table: string[][] = [
      ['blocks'],
      ['block', '60'],
      ['block', block.hash],
      ...['txs', 'outputs', 'coinbase', 'raw'].map((v) => ['block', '60', v]),
      ['txs'],
      ['tx', txid],
      ...['flow', 'inputs', 'outputs', 'raw', 'status', 'outspends'].map((v) => ['tx', txid, v]),
      ['address', addr],
      ...['txs', 'utxos', 'flows', 'balance-history', 'flow-summary', 'mempool'].map((v) => [
        'address',
        addr,
        v,
      ]),
      ['addresses', 'summary', addr, txid.slice(0, 40)],
      ['addresses', 'txs', addr, txid.slice(0, 40)],
      ['addresses', 'utxos', addr],
      ['miners', 'top'],
      ['miner', addr],
      ['miner', addr, 'blocks-over-time'],
      ['pools', 'top'],
      ['pools', 'top', '--window', '30d'],
      ['pool', pool],
      ['pool', pool, 'blocks-over-time'],
      ['pool', pool, 'payout-outputs'],
      ...['network', 'pouw', 'supply', 'pools', 'market'].map((k) => ['analytics', k]),
      ['market'],
      ['market', 'chart', '--days', '7'],
      ['search', '60'],
      ['suggest', '6'],
      ['mempool'],
      ['fees'],
      ['labels'],
      ['labels', 'pools'],
      ['status'],
      ['me'],
      ['completion', 'bash'],
      ['completion', 'zsh'],
    ];
    // As tables, which exercises every renderer besides the request (JSON is the API's answer as is).
    const argvs = table.map((argv) => (argv[0] === 'completion' ? argv : [...argv, '--table']));
    const failures: string[] = [];
    for (let i = 0; i < argvs.length; i += 10) {
      const batch = argvs.slice(i, i + 10);
      const results = await Promise.all(batch.map((argv) => cli(...argv)));
      results.forEach((r, j) => {
        if (r.code !== 0 || r.stdout.length === 0) {
          failures.push(`${batch[j]!.join(' ')} → ${r.code}: ${r.stderr.trim()}`);
        }
      });
    }
    expect(failures).toEqual([]);
  });

  it('npm run explorer -- … runs it from the checkout (the documented command), against EXPLORER_BASE_URL', async () => {
    const npm: [string] = ['npm'];
    const blocks = await run(['run', '-s', 'explorer', '--', 'blocks', '--limit', '50', '--json'], {
      baseUrl: url,
      command: npm,
    });
    expect(blocks.code).toBe(0);
    expect(JSON.parse(blocks.stdout)).toEqual(await data('/v1/blocks?limit=50'));
    const version = await run(['run', 'explorer', '--', '--version'], { command: npm });
    expect(version.code).toBe(0);
    expect(lines(version.stdout).at(-1)).toBe(
      JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')).version,
    );
    // Exit codes pass through npm.
    const down = await run(['run', '-s', 'explorer', '--', 'status'], {
      baseUrl: 'http://127.0.0.1:2',
      command: npm,
    });
    expect(down.code).toBe(8);
  });

  it('npm run explorer says what to do when the command line is not built', async () => {
    // The same script in a tree without builds.
    const tree = mkdtempSync(join(tmpdir(), 'explorer-unbuilt-'));
    mkdirSync(join(tree, 'scripts'));
    copyFileSync(join(root, 'scripts/explorer.mjs'), join(tree, 'scripts/explorer.mjs'));
    const r = await run(['blocks'], { command: [process.execPath, join(tree, 'scripts/explorer.mjs')] });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^explorer: the command line is not built yet; run `npm start` once .*\n$/);
  });

  it('completion bash is valid bash syntax (bash -n) and completes the commands', async () => {
    const r = await cli('completion', 'bash');
    const dir = mkdtempSync(join(tmpdir(), 'explorer-completion-'));
    const file = join(dir, 'explorer.bash');
    writeFileSync(file, r.stdout);
    expect(() => execFileSync('bash', ['-n', file])).not.toThrow();
    const out = execFileSync('bash', [
      '-c',
      `source ${file}; COMP_WORDS=(explorer block 1 ""); COMP_CWORD=3; _explorer_complete; echo "\${COMPREPLY[*]}"`,
    ]).toString();
    expect(out.split(' ')).toEqual(expect.arrayContaining(['txs', 'certificate', '--limit']));
  });
});

describe.skipIf(buildError !== null)('explorer bin, interrupted', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await serveSlowList(300);
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('Ctrl-C during a slow --all exits 130 with complete lines only', async () => {
    let sent = false;
    const r = await run(['blocks', '--all', '--ndjson', '--limit', '5'], {
      baseUrl: slow.url,
      onStdout: (text, kill) => {
        // After two pages, while the third is being served.
        if (!sent && lines(text).length >= 10) {
          sent = true;
          setTimeout(kill, 100);
        }
      },
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const rows = lines(r.stdout).map((l) => JSON.parse(l));
    expect(rows.length % 5).toBe(0);
    expect(rows.map((b) => b.height)).toEqual(Array.from({ length: rows.length }, (_, i) => i));
  });

  it('Ctrl-C with --json still leaves one valid JSON document', async () => {
    let sent = false;
    const r = await run(['blocks', '--all', '--json', '--limit', '5'], {
      baseUrl: slow.url,
      onStdout: (text, kill) => {
        if (!sent && lines(text).length >= 6) {
          sent = true;
          setTimeout(kill, 100);
        }
      },
    });
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout).blocks.length).toBeGreaterThanOrEqual(5);
  });
});

describe.skipIf(buildError !== null)('explorer bin, watching', () => {
  it('watch blocks --json prints NDJSON events until Ctrl-C, then exits 0', async () => {
    const log = blockEvents(3);
    const events = await serveEventStream((c) => {
      c.open();
      for (const e of log) c.send(e);
    });
    try {
      let sent = false;
      const r = await run(['watch', 'blocks', '--json'], {
        baseUrl: events.url,
        onStdout: (text, kill) => {
          if (!sent && lines(text).length >= 3) {
            sent = true;
            kill();
          }
        },
      });
      expect(sent).toBe(true);
      expect(r.code).toBe(0);
      expect(lines(r.stdout).map((l) => JSON.parse(l))).toEqual(log);
      expect(r.stderr).toBe('stopped; resume with --from 3\n');
    } finally {
      await events.close();
    }
  });
});
