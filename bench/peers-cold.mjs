#!/usr/bin/env node
// Cold reads against the peers, side by side on one chain: a litecoind regtest chain of exchange-style payouts
// (one input, --outputs-per-tx outputs and a change each, mined into blocks), indexed by the explorer
// into a PostgreSQL database of its own and served by `explorer-server start --no-index` on its defaults; the
// same chain answered by litecoind's own JSON-RPC and by btc-rpc-explorer pointed at that node. For every
// class a peer serves, each request names a transaction or block that no request of the run asked that system
// before (wrk with bench/wrk-paths.lua over a file of distinct paths or JSON-RPC bodies); then one request of
// the class again and again ("repeated"), which the caches answer. Rounds alternate between the systems, so a
// busier moment of the shared machine falls on all of them; ours ÷ peer is taken per round.
//
// usage: node bench/peers-cold.mjs [--txs 20000] [--outputs-per-tx 50] [--txs-per-block 1] [--connections 32]
//          [--seconds 5] [--rounds 3] [--classes tx,tx flow,…] [--btc-rpc-explorer <dir>|none] [--analyze]
//          [--out bench/out/peers-cold.json]
// Run from the repository's root after `pnpm build`. Needs PostgreSQL (BENCH_DATABASE_URL), litecoind
// (scripts/install-litecoind.sh), wrk (apt-get install wrk) and, for btc-rpc-explorer, npm (it is installed
// into a temporary directory, or taken from --btc-rpc-explorer <dir>: an installed copy, the directory holding
// its bin/www). Everything it starts or creates (node, servers, datadirs, the database) is removed at the end,
// also on failure or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgSql, openDatabase } from '../packages/db/dist/index.js';
import { createDefinitions, createIndexer, createNodeClient } from '../packages/indexer/dist/index.js';
import {
  BENCH_DATABASE_URL,
  backendCpu,
  cpuBetween,
  createBenchDatabase,
  dbUrl,
  dropBenchDatabase,
  explorerCounters,
  freePort,
  litecoindBin,
  median,
  procCpu,
  runWrk,
  sleep,
  startLitecoind,
  startScript,
  waitFor,
  wrkSkipReason,
} from './lib.mjs';
import { machineInfo } from './machine.mjs';
import { peersColdTable } from './peers-cold-table.mjs';

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '20000' },
    'outputs-per-tx': { type: 'string', default: '50' },
    // One payout per block by default: the block classes then have as many distinct blocks as the tx classes
    // have transactions.
    'txs-per-block': { type: 'string', default: '1' },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    classes: { type: 'string' },
    'btc-rpc-explorer': { type: 'string' },
    // Gather the planner's statistics after the initial sync (the indexer does so itself from 100,000 txs on).
    analyze: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/out/peers-cold.json' },
  },
});
const txCount = Number(values.txs);
const outputsPerTx = Number(values['outputs-per-tx']);
const txsPerBlock = Number(values['txs-per-block']);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const threads = 2;
// The version of btc-rpc-explorer measured: its latest release; none of its releases declares `engines`, and
// it runs on Node 20.
const BRE_VERSION = '3.5.1';
const log = (line) => console.error(`bench/peers-cold: ${line}`);

for (const [name, v] of [
  ['--txs', txCount],
  ['--outputs-per-tx', outputsPerTx],
  ['--txs-per-block', txsPerBlock],
  ['--connections', connections],
  ['--seconds', seconds],
  ['--rounds', rounds],
]) {
  if (!Number.isInteger(v) || v < 1) {
    console.error(`bench/peers-cold: ${name} must be a whole number ≥ 1`);
    process.exit(2);
  }
}
if (outputsPerTx > 1000 || txsPerBlock > 24) {
  // 1,000 payee addresses; the change of one payout funds the next, and a chain of more than 25 unconfirmed
  // transactions is refused.
  console.error('bench/peers-cold: --outputs-per-tx is at most 1000, --txs-per-block at most 24');
  process.exit(2);
}
if (Math.ceil(txCount / txsPerBlock) > 36_000) {
  // Blocks mined faster than one a second run ahead of the clock (each must be later than the median of the
  // 11 before it), about a second every six blocks, and the node refuses a block more than two hours ahead.
  console.error('bench/peers-cold: at most 36,000 blocks of payouts: raise --txs-per-block');
  process.exit(2);
}
const missing =
  wrkSkipReason() ?? (litecoindBin() ? null : 'litecoind is not installed (scripts/install-litecoind.sh)');
if (missing) {
  console.error(`bench/peers-cold: ${missing}`);
  process.exit(2);
}

// Clean-up of everything started or created, in reverse order: on success, failure, Ctrl-C. `exit` handlers
// (synchronous) are the last resort for what an async step did not reach.
const cleanups = [];
let cleaning;
const cleanup = () => {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        log(`clean-up: ${err.message}`);
      }
    }
  })();
  return cleaning;
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}
const work = mkdtempSync(join(tmpdir(), 'bench-peers-cold-'));
cleanups.push(() => rmSync(work, { recursive: true, force: true }));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** A child process that is stopped (SIGTERM, SIGKILL after a bound) at clean-up and at exit. */
function track(proc) {
  const gone = new Promise((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) r();
    else proc.once('exit', r);
  });
  const kill = () => proc.exitCode === null && proc.signalCode === null && proc.kill('SIGKILL');
  process.on('exit', kill);
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await Promise.race([gone, sleep(10_000)]);
    kill();
    await gone;
    process.off('exit', kill);
  };
  cleanups.push(stop);
  return stop;
}

const shuffled = (list) => {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

async function main() {
  // 1. The node: a regtest litecoind with -txindex=1. Its RPC on its defaults (4 threads) but a work queue
  //    deep enough for 32 connections (16 by default: the rest would be refused with 503s).
  // Its datadir in memory where the machine has /dev/shm (the chain is read from the page cache either way).
  const node = await startLitecoind({
    args: ['-rpcworkqueue=1024'],
    datadirRoot: existsSync('/dev/shm') ? '/dev/shm' : undefined,
  });
  cleanups.push(() => node.stop());
  const rpc = node.rpc;
  const wallet = (method, ...params) => node.wallet('bench', method, ...params);
  const nodeVersion = spawnSync(node.bin, ['-version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  log(`${nodeVersion}; building a chain of ${txCount} payouts of ${outputsPerTx} outputs…`);

  // 2. The chain. Coinbases to a wallet up to the block before MWEB's activation (height 432, whose block
  //    needs a peg-in, so one coin goes to an MWEB address first). Then the payouts, each spending one output
  //    (a mature coinbase, then the change of the payout before it on the same coin) to --outputs-per-tx of
  //    1,000 payee addresses and its change: built with createrawtransaction and signrawtransactionwithkey
  //    (the wallet's sendmany builds the same shape at 0.2–0.35 s a payout, hours for 20,000), with no wallet
  //    loaded, and later blocks mined to a payee, so that no wallet's bookkeeping runs beside the node.
  await rpc('createwallet', 'bench');
  const miner = await wallet('getnewaddress', '', 'bech32');
  await rpc('generatetoaddress', 431, miner);
  const pegin = await wallet('sendtoaddress', await wallet('getnewaddress', '', 'mweb'), 1);
  if (!(await rpc('getrawmempool')).includes(pegin)) {
    // Before activation the wallet may keep an MWEB transaction to itself.
    const { hex } = await wallet('gettransaction', pegin);
    await rpc('sendrawtransaction', hex);
  }
  await rpc('generatetoaddress', 1, miner);
  const payees = [];
  for (let i = 0; i < 1000; i++) payees.push(await wallet('getnewaddress', '', 'bech32'));
  const key = await wallet('dumpprivkey', miner);
  const sats = (coins) => Math.round(coins * 1e8);
  const coins = (s) => Number((s / 1e8).toFixed(8));
  const fee = 30_000; // ~17 sat/vB for a payout of 50 outputs
  const spend = outputsPerTx * 11_000 + fee; // at most, per payout
  // Mature coinbases of 25 LTC and more, each the start of one chain of payouts.
  const funding = (await wallet('listunspent', 100))
    .filter((u) => u.address === miner && u.amount >= 25)
    .map((u) => ({ txid: u.txid, vout: u.vout, value: sats(u.amount), scriptPubKey: u.scriptPubKey }));
  const perCoin = Math.floor(sats(25) / spend);
  if (funding.length * perCoin < txCount)
    throw new Error(`coins for ${funding.length * perCoin} payouts only`);
  await rpc('unloadwallet', 'bench');
  const payouts = [];
  const payoutBlocks = [];
  let pending = 0;
  const buildStarted = performance.now();
  let phase = { build: 0, send: 0, mine: 0 };
  for (let i = 0; i < txCount; i++) {
    const prev = funding[Math.floor(i / perCoin)];
    const to = {};
    let total = 0;
    for (let k = 0; k < outputsPerTx; k++) {
      const value = 10_000 + ((i * 7 + k) % 997);
      to[payees[(i * outputsPerTx + k) % payees.length]] = coins(value);
      total += value;
    }
    const change = prev.value - total - fee;
    to[miner] = coins(change);
    const t0 = performance.now();
    const raw = await rpc('createrawtransaction', [{ txid: prev.txid, vout: prev.vout }], to);
    const signed = await rpc(
      'signrawtransactionwithkey',
      raw,
      [key],
      [{ txid: prev.txid, vout: prev.vout, scriptPubKey: prev.scriptPubKey, amount: coins(prev.value) }],
    );
    if (!signed.complete) throw new Error(`payout ${i}: not signed: ${JSON.stringify(signed.errors)}`);
    const t1 = performance.now();
    const txid = await rpc('sendrawtransaction', signed.hex);
    const t2 = performance.now();
    payouts.push(txid);
    Object.assign(prev, { txid, vout: outputsPerTx, value: change });
    if (++pending === txsPerBlock || i === txCount - 1) {
      payoutBlocks.push((await rpc('generatetoaddress', 1, payees[0]))[0]);
      pending = 0;
    }
    phase.build += t1 - t0;
    phase.send += t2 - t1;
    phase.mine += performance.now() - t2;
    if ((i + 1) % 2000 === 0) {
      const ms = (v) => Math.round(v / 200) / 10;
      log(
        `${i + 1} of ${txCount} payouts (ms per payout: ${ms(phase.build)} building, ${ms(phase.send)} sending, ${ms(phase.mine)} mining)`,
      );
      phase = { build: 0, send: 0, mine: 0 };
    }
  }
  const tip = await rpc('getblockcount');
  log(`chain built in ${Math.round((performance.now() - buildStarted) / 1000)} s: tip ${tip}`);

  // 3. The explorer indexes it into a database of its own.
  const dbName = `bench_peers_cold_${process.pid}`;
  const admin = createPgSql({ connectionString: BENCH_DATABASE_URL, max: 1 });
  await createBenchDatabase(admin, dbName);
  const dropDb = async () => {
    await dropBenchDatabase(admin, dbName);
    await admin.close();
  };
  cleanups.push(dropDb);
  process.on('exit', () => {
    // Where the async clean-up did not run (an uncaught error on the way out).
    spawnSync('psql', [BENCH_DATABASE_URL, '-qc', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`], {
      stdio: 'ignore',
    });
  });
  const databaseUrl = dbUrl(dbName);
  const indexStarted = performance.now();
  {
    const sql = await openDatabase({ url: databaseUrl, poolSize: 2 });
    const indexer = createIndexer({
      sql,
      node: createNodeClient({ url: node.urlWithCredentials }),
      definitions: createDefinitions([], []),
    });
    try {
      await indexer.syncOnce();
    } finally {
      await indexer.stop();
      await sql.close();
    }
  }
  const indexSeconds = Math.round((performance.now() - indexStarted) / 100) / 10;
  const db = createPgSql({ connectionString: databaseUrl, max: 1 });
  cleanups.push(() => db.close());
  const [{ indexed }] = await db.query('SELECT tip_height AS indexed FROM indexer_state WHERE id = 1');
  if (indexed !== tip) throw new Error(`the index stopped at ${indexed}, the node's tip is ${tip}`);
  if (values.analyze) await db.query('ANALYZE');
  const [stats] = await db.query(
    `SELECT (last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL) AS analyzed FROM pg_stat_user_tables
     WHERE relname = 'txs'`,
  );
  // What litecoind's side of the flow and outspends classes needs to know of each payout beforehand.
  const shape = new Map();
  for (const r of await db.query(
    `SELECT encode(t.txid, 'hex') AS txid, t.output_count AS outputs, t.input_count AS inputs,
            string_agg(DISTINCT encode(p.txid, 'hex'), ',') AS prev
     FROM txs t JOIN inputs i ON i.tx_no = t.tx_no JOIN txs p ON p.tx_no = i.prev_tx_no
     WHERE encode(t.txid, 'hex') = ANY($1::text[]) GROUP BY t.tx_no`,
    [payouts],
  ))
    shape.set(r.txid, { outputs: r.outputs, inputs: r.inputs, prev: r.prev.split(',') });
  if (shape.size !== payouts.length) throw new Error(`${shape.size} of ${payouts.length} payouts indexed`);
  const chain = {
    tip,
    payouts: payouts.length,
    payoutBlocks: payoutBlocks.length,
    inputsPerPayout:
      Math.round((payouts.reduce((s, t) => s + shape.get(t).inputs, 0) / payouts.length) * 100) / 100,
    outputsPerPayout:
      Math.round((payouts.reduce((s, t) => s + shape.get(t).outputs, 0) / payouts.length) * 100) / 100,
    txsPerBlock,
    indexSeconds,
    plannerStatistics: values.analyze
      ? 'ANALYZE after the sync (--analyze)'
      : stats?.analyzed
        ? 'gathered by the indexer'
        : 'none',
  };
  log(
    `indexed in ${indexSeconds} s; ${chain.inputsPerPayout} inputs, ${chain.outputsPerPayout} outputs per payout`,
  );

  // 4. btc-rpc-explorer: installed with npm into a temporary directory, or an installed copy.
  const bre = await findBtcRpcExplorer();
  if (bre.skipped) log(`btc-rpc-explorer left out: ${bre.skipped}`);

  // 5. The classes, and what each system answers for them.
  const rpcBody = (method, params, id = 1) => JSON.stringify({ jsonrpc: '1.0', id, method, params });
  const batch = (calls) => `[${calls.map(([m, p], id) => rpcBody(m, p, id)).join(',')}]`;
  const oursSystem = (path) => ({ system: 'explorer', path });
  const nodeSystem = (request, body) => ({ system: 'litecoind RPC', request, body });
  const breSystem = (request, path, check) => ({
    system: 'btc-rpc-explorer',
    request,
    path,
    check,
    bre: true,
  });
  const breApiCheck = (want) => (text) => {
    const j = JSON.parse(text);
    if (j.success === false) return 'answered {"success":false}';
    return want(j) ? null : 'lacks what the class asks';
  };
  const breHtmlCheck = (key) => (text, item) =>
    text.includes(item[key]) && !/Error loading|Failed to load/i.test(text) ? null : 'an error page';
  const txItems = payouts.map((txid) => ({ txid, ...shape.get(txid) }));
  const blockItems = payoutBlocks.map((hash) => ({ hash }));
  const classes = [
    {
      name: 'tx',
      items: txItems,
      systems: [
        oursSystem((t) => `/v1/txs/${t.txid}`),
        nodeSystem('`getrawtransaction <txid> true`', (t) => rpcBody('getrawtransaction', [t.txid, true])),
        breSystem(
          '`/api/tx/<txid>`',
          (t) => `/api/tx/${t.txid}`,
          breApiCheck((j) => j.txid),
        ),
      ],
    },
    {
      name: 'tx flow',
      items: txItems,
      systems: [
        oursSystem((t) => `/v1/txs/${t.txid}/flow`),
        // What a client of the node needs for inputs with values and addresses: the transaction and every
        // transaction its inputs spend. Asked as one batch whose prevouts were looked up beforehand, which
        // spares litecoind the second round trip a real client needs: a lower bound on its cost.
        nodeSystem('one batch: `getrawtransaction` of the tx and of each distinct tx its inputs spend', (t) =>
          batch([
            ['getrawtransaction', [t.txid, true]],
            ...t.prev.map((p) => ['getrawtransaction', [p, true]]),
          ]),
        ),
        breSystem(
          '`/api/tx/<txid>` (inputs resolved)',
          (t) => `/api/tx/${t.txid}`,
          breApiCheck((j) => j.vin?.[0]?.value !== undefined),
        ),
        breSystem('`/tx/<txid>` page', (t) => `/tx/${t.txid}`, breHtmlCheck('txid')),
      ],
    },
    {
      name: 'tx status',
      items: txItems,
      systems: [
        oursSystem((t) => `/v1/txs/${t.txid}/status`),
        nodeSystem('`gettxoutproof ["<txid>"]`', (t) => rpcBody('gettxoutproof', [[t.txid]])),
      ],
      notServed: { 'btc-rpc-explorer': 'no route gives a merkle proof' },
    },
    {
      name: 'outspends',
      items: txItems,
      systems: [
        oursSystem((t) => `/v1/txs/${t.txid}/outspends`),
        // Per transaction: one request is a batch of one gettxout per output. gettxout says only whether an
        // output is unspent, not what spends it (the node keeps no spend index).
        nodeSystem('one batch: `gettxout <txid> <n>` per output (per tx)', (t) =>
          batch(Array.from({ length: t.outputs }, (_, n) => ['gettxout', [t.txid, n]])),
        ),
      ],
      notServed: {
        'btc-rpc-explorer':
          'no route of its own; its tx page shows which outputs are unspent among everything else (measured under tx flow)',
      },
    },
    {
      name: 'block by hash',
      items: blockItems,
      systems: [
        oursSystem((b) => `/v1/blocks/${b.hash}`),
        nodeSystem('`getblock <hash> 1`', (b) => rpcBody('getblock', [b.hash, 1])),
        breSystem(
          '`/api/block/<hash>`',
          (b) => `/api/block/${b.hash}`,
          breApiCheck((j) => j.hash),
        ),
      ],
    },
    {
      name: 'block txs page',
      items: blockItems,
      systems: [
        oursSystem((b) => `/v1/blocks/${b.hash}/txs`),
        nodeSystem('`getblock <hash> 2`', (b) => rpcBody('getblock', [b.hash, 2])),
        breSystem('`/block/<hash>` page', (b) => `/block/${b.hash}`, breHtmlCheck('hash')),
      ],
    },
  ];
  const wanted = values.classes ? new Set(values.classes.split(',')) : null;
  const results = [];
  for (const cls of classes) {
    if (wanted && !wanted.has(cls.name)) continue;
    const systems = cls.systems.filter((s) => !s.bre || !bre.skipped);
    const notServed = { ...cls.notServed };
    if (bre.skipped && cls.systems.some((s) => s.bre))
      notServed['btc-rpc-explorer'] = `left out: ${bre.skipped}`;
    results.push(
      await measureClass(cls.name, cls.items, systems, notServed, { node, databaseUrl, db, dbName, bre }),
    );
  }

  const result = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    command: `node bench/peers-cold.mjs --txs ${txCount} --outputs-per-tx ${outputsPerTx} --txs-per-block ${txsPerBlock} --connections ${connections} --seconds ${seconds} --rounds ${rounds}${values.analyze ? ' --analyze' : ''}`,
    generator: `wrk -t${threads} -c${connections}, bench/wrk-paths.lua; median of ${rounds} rounds, alternating between the systems`,
    chain,
    systems: {
      explorer:
        'explorer-server start --no-index on its defaults (every cache on), RATE_LIMIT_ENABLED=false, PostgreSQL',
      'litecoind RPC': `${nodeVersion}, -txindex=1 -rpcworkqueue=1024 (4 RPC threads, its default), HTTP basic auth`,
      'btc-rpc-explorer': bre.skipped
        ? `left out: ${bre.skipped}`
        : `btc-rpc-explorer ${bre.version}, its in-memory caches as it ships; ${BRE_ENV_NOTE}`,
    },
    connections,
    seconds,
    rounds,
    postgresCpu: 'the backends connected to its database',
    classes: results,
  };
  mkdirSync(dirname(values.out), { recursive: true });
  writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(peersColdTable(result).join('\n'));
}

// Set beside the connection: no rate limit (as ours runs), no outside requests, the full-size page (20
// transactions per block page, like ours) and its RPC concurrency of 10 instead of the slow-device 3.
const BRE_ENV_NOTE =
  'BTCEXP_SLOW_DEVICE_MODE=false, BTCEXP_RATE_LIMIT_WINDOW_MINUTES=-1, BTCEXP_PRIVACY_MODE=true, BTCEXP_NO_RATES=true, NODE_ENV=production';

/** btc-rpc-explorer's directory and version, or why it is left out. */
async function findBtcRpcExplorer() {
  const given = values['btc-rpc-explorer'];
  if (given === 'none') return { skipped: '--btc-rpc-explorer none' };
  let dir;
  if (given) {
    dir = [resolve(given), resolve(given, 'node_modules/btc-rpc-explorer')].find((d) =>
      existsSync(join(d, 'bin/www')),
    );
    if (!dir) return { skipped: `no bin/www in ${given}` };
  } else {
    const prefix = join(work, 'btc-rpc-explorer');
    mkdirSync(prefix);
    log(`npm install btc-rpc-explorer@${BRE_VERSION}…`);
    const r = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--omit=dev',
        '--no-audit',
        '--no-fund',
        `btc-rpc-explorer@${BRE_VERSION}`,
      ],
      { encoding: 'utf8', timeout: 900_000 },
    );
    dir = join(prefix, 'node_modules/btc-rpc-explorer');
    if (r.status !== 0 || !existsSync(join(dir, 'bin/www'))) {
      const why =
        (r.stderr || r.error?.message || '').split('\n').find((l) => /error/i.test(l)) ??
        `status ${r.status}`;
      return { skipped: `npm install btc-rpc-explorer@${BRE_VERSION} failed (${why.trim()})` };
    }
  }
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return { dir, version };
}

/** Starts btc-rpc-explorer against the node and waits until it answers and its start-up work is done. */
async function startBre(bre, node) {
  const port = await freePort();
  const cache = mkdtempSync(join(work, 'bre-cache-'));
  const proc = spawn(process.execPath, ['bin/www'], {
    cwd: bre.dir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DEBUG: 'btcexp:error',
      BTCEXP_HOST: '127.0.0.1',
      BTCEXP_PORT: String(port),
      BTCEXP_BITCOIND_HOST: '127.0.0.1',
      BTCEXP_BITCOIND_PORT: String(node.rpcPort),
      BTCEXP_BITCOIND_USER: node.user,
      BTCEXP_BITCOIND_PASS: node.password,
      BTCEXP_SLOW_DEVICE_MODE: 'false',
      BTCEXP_RATE_LIMIT_WINDOW_MINUTES: '-1',
      BTCEXP_PRIVACY_MODE: 'true',
      BTCEXP_NO_RATES: 'true',
      BTCEXP_FILESYSTEM_CACHE_DIR: cache,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = track(proc);
  const state = { errors: 0, lastError: '' };
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (d) => {
    for (const line of d.split('\n')) {
      if (!/btcexp:error/.test(line)) continue;
      state.errors++;
      state.lastError = line.slice(0, 300);
    }
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    'btc-rpc-explorer',
    async () => {
      if (proc.exitCode !== null) throw new Error(`exited with ${proc.exitCode}`);
      const res = await fetch(`${url}/api/blocks/tip/height`);
      return res.ok && /^\d+$/.test((await res.text()).trim());
    },
    { timeoutMs: 120_000, everyMs: 250 },
  );
  // Its start-up work (the last day's block stats, the UTXO set's summary) keeps it and the node busy for a
  // while: wait until both are idle (under 5 % of a core over a second), for at most three minutes.
  await waitFor(
    'btc-rpc-explorer start-up work',
    async () => {
      const a = procCpu(proc.pid) + procCpu(node.proc.pid);
      await sleep(1000);
      return procCpu(proc.pid) + procCpu(node.proc.pid) - a < 0.05;
    },
    { timeoutMs: 180_000, everyMs: 0 },
  );
  return { url, pid: proc.pid, stop, state };
}

/** Starts the explorer's API over the indexed database, on its defaults. */
async function startOurs(databaseUrl, node) {
  const metricsPort = await freePort();
  const server = await startScript(['packages/server/dist/bin.js', 'start', '--no-index', '--port', '0'], {
    DATABASE_URL: databaseUrl,
    NODE_RPC_URL: node.urlWithCredentials,
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'silent',
    METRICS_PORT: String(metricsPort),
  });
  const stop = track(server.proc);
  return { url: server.match[1], pid: server.proc.pid, metricsPort, stop };
}

/**
 * One class: fresh server processes (no cache holds anything), a cold pool of distinct requests per system
 * and one repeated request, checked before the load; then warm-up, cold rounds and repeated rounds.
 */
async function measureClass(name, allItems, systems, notServed, { node, databaseUrl, db, dbName, bre }) {
  const ours = await startOurs(databaseUrl, node);
  const breProc = systems.some((s) => s.bre) ? await startBre(bre, node) : null;
  const items = shuffled(allItems);
  // The repeated request names the first item; the cold rounds never do. The last 25 are the checked sample.
  const [hot, ...rest] = items;
  const sample = rest.slice(-25);
  const pool = rest.slice(0, -25);
  const dir = mkdtempSync(join(work, 'class-'));
  const runs = [];
  for (const [i, s] of systems.entries()) {
    const line = s.body ?? s.path;
    const file = join(dir, `${i}-cold.txt`);
    writeFileSync(file, `${pool.map(line).join('\n')}\n`);
    const hotFile = join(dir, `${i}-hot.txt`);
    writeFileSync(hotFile, `${line(hot)}\n`);
    const base = s.system === 'explorer' ? ours.url : s.bre ? breProc.url : node.url.replace(/\/$/, '');
    const post = s.body ? { auth: node.auth } : undefined;
    const failMatch = s.body
      ? '"error":{'
      : s.bre && s.path(hot).startsWith('/api/')
        ? '"success":false'
        : undefined;
    // The sample, and the repeated request: each answered in full, as the class asks.
    const sizes = [];
    for (const item of [...sample, hot]) {
      const res = await fetch(`${base}${s.body ? '/' : s.path(item)}`, {
        method: s.body ? 'POST' : 'GET',
        headers: s.body ? { authorization: node.auth, 'content-type': 'application/json' } : {},
        body: s.body ? s.body(item) : undefined,
      });
      const text = await res.text();
      const wrong =
        res.status !== 200
          ? `status ${res.status}`
          : s.body
            ? text.includes('"error":{')
              ? 'an RPC error'
              : null
            : s.check
              ? s.check(text, item)
              : null;
      if (wrong) throw new Error(`${name}, ${s.system}: ${wrong}: ${text.slice(0, 300)}`);
      sizes.push(Buffer.byteLength(text));
    }
    const pids = async () =>
      s.system === 'explorer'
        ? { server: procCpu(ours.pid), postgres: await backendCpu(db, dbName) }
        : s.bre
          ? { btcRpcExplorer: procCpu(breProc.pid), litecoind: procCpu(node.proc.pid) }
          : { litecoind: procCpu(node.proc.pid) };
    runs.push({
      s,
      base,
      file,
      hotFile,
      post,
      failMatch,
      offset: 0,
      bytes: median(sizes),
      pids,
      cold: [],
      repeated: [],
      wrapped: false,
    });
  }

  const round = async (run, mode, secs) => {
    const before = run.s.system === 'explorer' ? await explorerCounters(ours.metricsPort) : null;
    const breErrors = breProc?.state.errors ?? 0;
    const cpu0 = await run.pids();
    const w = runWrk({
      url: `${run.base}${run.post ? '/' : ''}`,
      file: mode === 'cold' ? run.file : run.hotFile,
      offset: mode === 'cold' ? run.offset : 0,
      seconds: secs,
      connections,
      threads,
      post: run.post,
      failMatch: run.failMatch,
    });
    const cpu1 = await run.pids();
    const spent = (k) => (cpu0[k] instanceof Map ? cpuBetween(cpu0[k], cpu1[k]) : cpu1[k] - cpu0[k]);
    const cpuMs = Object.fromEntries(
      Object.keys(cpu0).map((k) => [k, Math.round((spent(k) * 1e5) / Math.max(1, w.requests)) / 100]),
    );
    const r = { seconds: secs, rps: w.rps, p50: w.p50, p99: w.p99, requests: w.requests, cpuMs };
    r.errors = w.errors + w.failed + (run.s.bre ? breProc.state.errors - breErrors : 0);
    if (mode === 'cold') {
      r.wrapped = w.wrapped;
      run.offset += w.used;
      run.wrapped ||= w.wrapped;
    }
    if (before) {
      const after = await explorerCounters(ours.metricsPort);
      // The scrape itself is one request the counters see.
      const requests = Math.max(1, after.requests - before.requests - 1);
      r.statementsPerRequest = Math.round(((after.statements - before.statements) / requests) * 100) / 100;
      r.fromCache = Math.round(((after.fromCache - before.fromCache) / requests) * 1000) / 1000;
    }
    if (r.errors > 0) {
      log(
        `${name}, ${run.s.system} (${mode}): ${r.errors} errors or failed answers${run.s.bre && breProc.state.lastError ? ` (${breProc.state.lastError})` : ''}`,
      );
    }
    return r;
  };

  // Warm-up (JIT, connections, plans) on cold requests of its own, which also measures how fast each system
  // goes: each cold round lasts as long as its share of what is left of the list allows at the rate of the run
  // before it (with a margin), at most --seconds, so that no round runs out of distinct requests.
  const warm = Math.min(2, seconds);
  const roundSeconds = (run, left) =>
    Math.max(
      1,
      Math.min(seconds, Math.floor((pool.length - run.offset) / left / (Math.max(1, run.rate) * 1.3))),
    );
  for (const run of runs) {
    const w = runWrk({
      url: `${run.base}${run.post ? '/' : ''}`,
      file: run.file,
      seconds: warm,
      connections,
      threads,
      post: run.post,
      failMatch: run.failMatch,
    });
    run.offset = w.used;
    run.rate = w.rps;
  }
  for (let r = 0; r < rounds; r++)
    for (const run of runs) {
      const secs = roundSeconds(run, rounds - r);
      const m = await round(run, 'cold', secs);
      run.rate = Math.max(run.rate, m.rps);
      run.cold.push(m);
    }
  for (const run of runs)
    runWrk({
      url: `${run.base}${run.post ? '/' : ''}`,
      file: run.hotFile,
      seconds: 1,
      connections,
      threads,
      post: run.post,
      failMatch: run.failMatch,
    });
  for (let r = 0; r < rounds; r++)
    for (const run of runs) run.repeated.push(await round(run, 'repeated', seconds));
  await ours.stop();
  await breProc?.stop();
  rmSync(dir, { recursive: true, force: true });

  const summary = (list) => {
    const pick = (f) => median(list.map(f));
    const out = {
      rps: pick((r) => r.rps),
      p50: pick((r) => r.p50),
      p99: pick((r) => r.p99),
      cpuMsPerRequest: Object.fromEntries(
        Object.keys(list[0].cpuMs).map((k) => [k, pick((r) => r.cpuMs[k])]),
      ),
      errors: list.reduce((s, r) => s + r.errors, 0),
    };
    if (list[0].statementsPerRequest !== undefined) {
      out.statementsPerRequest = pick((r) => r.statementsPerRequest);
      out.fromCache = pick((r) => r.fromCache);
    }
    return out;
  };
  const oursRun = runs[0];
  const ratio = (run, mode) =>
    median(
      oursRun[mode]
        .map((o, i) => (run[mode][i].rps > 0 ? Math.round((o.rps / run[mode][i].rps) * 100) / 100 : null))
        .filter((x) => x !== null),
    );
  const row = {
    name,
    distinctPaths: pool.length,
    systems: runs.map((run) => ({
      system: run.s.system,
      request: run.s.request ?? `\`${run.s.path({ txid: '<txid>', hash: '<hash>' })}\``,
      bytes: run.bytes,
      wrapped: run.wrapped,
      coldRoundSeconds: run.cold.map((r) => r.seconds),
      coldRequestsAsked: run.offset,
      cold: summary(run.cold),
      repeated: summary(run.repeated),
      oursOver: run === oursRun ? null : { cold: ratio(run, 'cold'), repeated: ratio(run, 'repeated') },
      rounds: { cold: run.cold, repeated: run.repeated },
    })),
    notServed,
  };
  for (const s of row.systems)
    log(
      `${`${name}, ${s.system} ${s.request}`.slice(0, 70).padEnd(70)} cold ${String(s.cold.rps).padStart(6)} req/s p50 ${s.cold.p50} p99 ${s.cold.p99} ms; repeated ${String(s.repeated.rps).padStart(6)} req/s${s.oursOver ? `; ours ÷ this ${s.oursOver.cold} cold, ${s.oursOver.repeated} repeated` : ''}${s.wrapped ? '; RAN OUT OF DISTINCT REQUESTS' : ''}`,
    );
  return row;
}

try {
  await main();
  await cleanup();
  process.exit(0);
} catch (err) {
  log(`failed: ${err.stack ?? err.message}`);
  await cleanup();
  process.exit(1);
}
