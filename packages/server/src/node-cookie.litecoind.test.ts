import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBase58Check } from '@explorer/chain';
import {
  getJson,
  type Litecoind,
  litecoindAvailable,
  seedDataDir,
  startLitecoind,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config/index.js';
import { createRuntime, type Runtime } from './runtime/index.js';
import { captureLog } from './test-support/log-capture.js';

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[server] litecoind tests skipped: ${unavailable}`);

const BROWSER = 'text/html,application/xhtml+xml';

describe.skipIf(unavailable !== null)('a litecoind that authenticates with its cookie (regtest)', () => {
  let dir: string;
  let cookieFile: string;
  let node: Litecoind;
  let runtime: Runtime | undefined;
  const { log, lines, messages } = captureLog();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'explorer-cookie-'));
    cookieFile = join(dir, 'cookie');
    node = await startLitecoind({ cookieFile });
  });
  afterAll(async () => {
    await runtime?.close();
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The index and the API's view of the node, once both reached `height`. */
  const reached = (url: string, height: number) =>
    waitFor(`the index and the API's node height at ${height}`, async () => {
      const { body } = await getJson(`${url}/v1/status`);
      return body?.meta?.indexedTip === height && body.status.node.height === height ? body : null;
    });

  it('indexes through the cookie and names Litecoin regtest, its unit and its address prefixes', async () => {
    expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const first = readFileSync(cookieFile, 'utf8');
    expect(first).toMatch(/^__cookie__:[0-9a-f]{64}$/);
    await node.mine(12);
    runtime = await createRuntime(
      loadConfig({
        EXPLORER_DATA_DIR: await seedDataDir(join(dir, 'explorer')),
        PORT: '0',
        // An explicit environment does not carry the test runner's METRICS_PORT.
        ...TEST_SERVER_SETTINGS,
        NODE_RPC_URL: node.rpcUrl,
        NODE_RPC_COOKIE: cookieFile,
        INDEXER_POLL_MS: '50',
        MEMPOOL_POLL_MS: '200',
      }),
      { log },
    );
    const url = runtime.url!;
    const body = await reached(url, 12);
    expect(body.status.chain).toMatchObject({
      profile: 'bitcoin',
      network: 'regtest',
      name: 'Litecoin regtest',
      genesisHash: await node.rpc<string>('getblockhash', 0),
      knownGenesis: true,
      units: { symbol: 'tLTC', baseUnit: 'litoshi', decimals: 8 },
      addresses: {
        bech32Hrp: 'rltc',
        mwebHrp: 'tmweb',
        base58: { pubkeyHash: 111, scriptHash: 58, legacyScriptHash: 196 },
      },
      blockSeconds: 150,
    });
    // The prefixes are the node's own: its wallet's addresses of each kind carry them.
    const { addresses } = body.status.chain;
    expect(await node.newAddress('bech32')).toMatch(new RegExp(`^${addresses.bech32Hrp}1`));
    expect(await node.newAddress('mweb')).toMatch(new RegExp(`^${addresses.mwebHrp}1`));
    expect(decodeBase58Check(await node.newAddress('legacy'))?.version).toBe(addresses.base58.pubkeyHash);
    expect(decodeBase58Check(await node.newAddress('p2sh-segwit'))?.version).toBe(
      addresses.base58.scriptHash,
    );

    const page = await (await fetch(`${url}/`, { headers: { accept: BROWSER } })).text();
    expect(page).toContain('<title>Explorer API · Litecoin regtest</title>');
    expect(page).toContain('<dd id="chain">Litecoin regtest (tLTC) · rltc, tmweb</dd>');
    expect(messages('node cookie')).toEqual([expect.objectContaining({ cookieFile })]);
  });

  it('goes on through a restart of the node, which writes a new cookie, without a restart of its own', async () => {
    const url = runtime!.url!;
    const before = readFileSync(cookieFile, 'utf8');
    await node.restart();
    const after = readFileSync(cookieFile, 'utf8');
    expect(after).toMatch(/^__cookie__:[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
    await node.mine(3);
    // Both the indexer's client and the API's read the new cookie on the node's first 401.
    const body = await reached(url, 15);
    expect(body.status.indexer.tipHeight).toBe(15);
    const { body: block } = await getJson(`${url}/v1/blocks/15`);
    expect(block.block.hash).toBe(await node.rpc<string>('getblockhash', 15));
    // The stale cookie cost no pass: each 401 was answered by reading the new cookie and asking again.
    const failures = messages('indexer pass failed; retrying').map((e) => String(e.err));
    expect(failures.filter((m) => /refused/.test(m))).toEqual([]);
    // Neither cookie was ever logged.
    const secrets = [before, after].map((c) => c.split(':')[1]!);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) for (const secret of secrets) expect(line).not.toContain(secret);
  });
});
