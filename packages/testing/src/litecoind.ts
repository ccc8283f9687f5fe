// Test support: throw-away Litecoin Core (0.21.x, MWEB) regtest nodes on loopback.
// Regtest facts relied on here: coinbase maturity 100, subsidy halves every 150 blocks, MWEB activates at
// height 432 and that block must carry a peg-in (the HogEx needs an input), which the wallet will not
// broadcast before the tip is at height 431.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePorts } from './http.js';

/** Height at which MWEB activates on regtest; the block at this height must contain a peg-in. */
export const MWEB_ACTIVATION_HEIGHT = 432;

/** Coinbase outputs can be spent once they have this many confirmations (so from tip height 101 on). */
export const COINBASE_MATURITY = 100;

const RPC_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 15_000;
const WALLET = 'test';

/** A running regtest node started by {@link startLitecoind}. */
export interface Litecoind {
  /** JSON-RPC endpoint with credentials, `http://user:pass@127.0.0.1:port/` (fetch() needs them moved to a header). */
  rpcUrl: string;
  /** Data directory of the node (removed by stop()). */
  datadir: string;
  /** Calls a node RPC; rejects with an {@link RpcError} when the node answers with an error. */
  rpc<T = unknown>(method: string, ...params: unknown[]): Promise<T>;
  /** Mines n blocks to address (a fresh wallet address by default) and returns their hashes; handles height 432. */
  mine(n: number, address?: string): Promise<string[]>;
  /** Returns a new address of the given type from the node's wallet. */
  newAddress(type: 'legacy' | 'p2sh-segwit' | 'bech32' | 'mweb'): Promise<string>;
  /** Sends coins (a decimal LTC amount) from the wallet and returns the txid. */
  send(address: string, coins: number): Promise<string>;
  /** Mines past coinbase maturity and sends one coin to an MWEB address so regtest mining keeps working past height 432. */
  prepareMweb(): Promise<void>;
  /** Stops the node cleanly (kill -9 after a bound) and removes its datadir; safe to call twice. */
  stop(): Promise<void>;
}

/** Error answered by the node's JSON-RPC interface (code is Bitcoin Core's RPC error code). */
export class RpcError extends Error {
  /** Bitcoin Core RPC error code, e.g. -5 (invalid address), -28 (warming up). */
  readonly code: number;
  /** The node's own error message, without the method name and code. */
  readonly detail: string;
  /** Creates an error for `method` with the node's code and message. */
  constructor(method: string, code: number, message: string) {
    super(`${method}: ${message} (code ${code})`);
    this.name = 'RpcError';
    this.code = code;
    this.detail = message;
  }
}

let availability: { bin: string | null; reason: string | null } | undefined;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && isExecutable(candidate)) return candidate;
  }
  return null;
}

function probe(): { bin: string | null; reason: string | null } {
  // Debian's /usr/bin/litecoind is a shell wrapper that writes ~/.litecoin; prefer the real binary behind it.
  const debianBinary = '/usr/lib/litecoin/litecoind';
  const bin = process.env.LITECOIND || (isExecutable(debianBinary) ? debianBinary : findOnPath('litecoind'));
  if (!bin) return { bin: null, reason: 'litecoind not found on PATH (run scripts/install-litecoind.sh)' };
  const res = spawnSync(bin, ['-version'], { encoding: 'utf8', timeout: 10_000 });
  if (res.error) return { bin: null, reason: `${bin} -version failed: ${res.error.message}` };
  if (res.status !== 0) return { bin: null, reason: `${bin} -version exited with status ${res.status}` };
  const first = res.stdout.split('\n')[0] ?? '';
  if (!/Litecoin Core/i.test(first)) return { bin: null, reason: `${bin} is not Litecoin Core: ${first}` };
  return { bin, reason: null };
}

/** Returns null when a litecoind binary is usable here, else a one-line reason why not (for describe.skipIf). */
export function litecoindAvailable(): string | null {
  availability ??= probe();
  return availability.reason;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function tail(text: string, lines: number): string {
  return text.trim().split('\n').slice(-lines).join(' | ');
}

function debugLogTail(datadir: string): string {
  try {
    return tail(readFileSync(join(datadir, 'regtest', 'debug.log'), 'utf8'), 5);
  } catch {
    return '';
  }
}

interface RpcReply {
  result: unknown;
  error: { code: number; message: string } | null;
}

function makeRpc(port: number, user: string, password: string) {
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  let id = 0;
  return async <T>(path: string, method: string, params: unknown[]): Promise<T> => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
    });
    const text = await res.text();
    let reply: RpcReply;
    try {
      reply = JSON.parse(text) as RpcReply;
    } catch {
      throw new RpcError(method, res.status, `HTTP ${res.status} ${text.slice(0, 200)}`.trim());
    }
    if (reply.error) throw new RpcError(method, reply.error.code, reply.error.message);
    return reply.result as T;
  };
}

interface Spawned {
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
}

function spawnNode(bin: string, args: string[]): Spawned {
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    err = (err + d).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (e) => {
      err += e.message;
      resolve(-1);
    });
  });
  return { child, exited, stderr: () => err };
}

/** Starts a fresh regtest litecoind in a new temp datadir on free loopback ports, with a loaded wallet. */
export async function startLitecoind(opts: { args?: string[] } = {}): Promise<Litecoind> {
  const reason = litecoindAvailable();
  if (reason || !availability?.bin) throw new Error(`litecoind unavailable: ${reason}`);
  const bin = availability.bin;
  const user = `u${randomBytes(6).toString('hex')}`;
  const password = randomBytes(18).toString('hex');

  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const datadir = mkdtempSync(join(tmpdir(), 'litecoind-'));
    const [rpcPort, p2pPort] = (await freePorts(2)) as [number, number];
    const args = [
      '-regtest',
      `-datadir=${datadir}`,
      '-server=1',
      '-listen=0',
      '-connect=0',
      '-dnsseed=0',
      '-discover=0',
      '-upnp=0',
      '-printtoconsole=0',
      `-port=${p2pPort}`,
      `-rpcport=${rpcPort}`,
      '-rpcbind=127.0.0.1',
      '-rpcallowip=127.0.0.1',
      `-rpcuser=${user}`,
      `-rpcpassword=${password}`,
      '-txindex=1',
      '-fallbackfee=0.0001',
      ...(opts.args ?? []),
    ];
    const proc = spawnNode(bin, args);
    const call = makeRpc(rpcPort, user, password);
    let exitCode: number | null | undefined;
    void proc.exited.then((c) => {
      exitCode = c;
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    let ready = false;
    while (Date.now() < deadline && exitCode === undefined) {
      try {
        await call('/', 'getblockchaininfo', []);
        ready = true;
        break;
      } catch {
        await sleep(100);
      }
    }
    if (ready) {
      try {
        return await attach({ proc, call, datadir, rpcPort, user, password });
      } catch (e) {
        proc.child.kill('SIGKILL');
        await proc.exited;
        rmSync(datadir, { recursive: true, force: true });
        throw e;
      }
    }
    lastError =
      exitCode === undefined
        ? `RPC did not answer within ${START_TIMEOUT_MS} ms`
        : `exited with code ${exitCode}: ${tail(proc.stderr(), 3)}`;
    lastError += ` ${debugLogTail(datadir)}`;
    proc.child.kill('SIGKILL');
    await proc.exited;
    rmSync(datadir, { recursive: true, force: true });
    // A port taken between probing and binding is the usual cause; try again on new ports.
  }
  throw new Error(`litecoind failed to start: ${lastError.trim()}`);
}

interface MempoolEntry {
  mweb?: { pegins?: unknown[] };
}

async function attach(ctx: {
  proc: Spawned;
  call: ReturnType<typeof makeRpc>;
  datadir: string;
  rpcPort: number;
  user: string;
  password: string;
}): Promise<Litecoind> {
  const { proc, call, datadir } = ctx;
  const rpc = <T = unknown>(method: string, ...params: unknown[]) => call<T>('/', method, params);
  const wallet = <T = unknown>(method: string, ...params: unknown[]) =>
    call<T>(`/wallet/${WALLET}`, method, params);

  // 0.21 creates no default wallet.
  const loaded = await rpc<string[]>('listwallets').catch(() => null);
  if (loaded && !loaded.includes(WALLET)) {
    try {
      await rpc('createwallet', WALLET);
    } catch (e) {
      // Already on disk (e.g. a reused datadir): load it instead.
      if (e instanceof RpcError && e.code === -4) await rpc('loadwallet', WALLET);
      else throw e;
    }
  }

  const onExit = () => {
    proc.child.kill('SIGKILL');
    rmSync(datadir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  let mwebPrepared = false;
  const sent: string[] = [];
  let stopped: Promise<void> | undefined;

  const height = () => rpc<number>('getblockcount');
  const newAddress = (type: 'legacy' | 'p2sh-segwit' | 'bech32' | 'mweb') =>
    wallet<string>('getnewaddress', '', type);

  const send = async (address: string, coins: number) => {
    const txid = await wallet<string>('sendtoaddress', address, coins);
    sent.push(txid);
    return txid;
  };

  const mempoolHasPegin = async () => {
    const pool = await rpc<Record<string, MempoolEntry>>('getrawmempool', true);
    return Object.values(pool).some((e) => (e.mweb?.pegins?.length ?? 0) > 0);
  };

  // Before activation the wallet keeps MWEB transactions to itself ("mweb-before-activation") and does not
  // rebroadcast them on its own; push them into the mempool once the next block is the activation block.
  const ensurePegin = async () => {
    if (await mempoolHasPegin()) return;
    const pool = new Set(await rpc<string[]>('getrawmempool'));
    for (const txid of sent) {
      if (pool.has(txid)) continue;
      const tx = await wallet<{ confirmations: number; hex: string }>('gettransaction', txid).catch(
        () => null,
      );
      if (tx?.confirmations !== 0) continue;
      await rpc('sendrawtransaction', tx.hex).catch(() => undefined);
    }
    if (mwebPrepared && !(await mempoolHasPegin())) await send(await newAddress('mweb'), 1);
  };

  const generate = async (n: number, address: string | undefined) => {
    if (n <= 0) return [];
    const to = address ?? (await newAddress('bech32'));
    try {
      return await rpc<string[]>('generatetoaddress', n, to);
    } catch (e) {
      if (e instanceof RpcError && /bad-txns-vin-empty/.test(e.message)) {
        throw new RpcError(
          'generatetoaddress',
          e.code,
          `${e.detail} — the MWEB activation block (height ${MWEB_ACTIVATION_HEIGHT}) needs a peg-in; call prepareMweb() first`,
        );
      }
      throw e;
    }
  };

  const mine = async (n: number, address?: string) => {
    const h = await height();
    const before = MWEB_ACTIVATION_HEIGHT - 1 - h; // blocks that can be mined before the activation block
    if (n <= before || h >= MWEB_ACTIVATION_HEIGHT) return generate(n, address);
    const first = await generate(Math.max(0, before), address);
    if ((await height()) === MWEB_ACTIVATION_HEIGHT - 1) await ensurePegin();
    return [...first, ...(await generate(n - first.length, address))];
  };

  const prepareMweb = async () => {
    mwebPrepared = true;
    const h = await height();
    if (h >= MWEB_ACTIVATION_HEIGHT) return; // past activation, a peg-in already happened
    // Two mature coinbases: the (possibly held) peg-in reserves one, the other stays free for the test.
    if (h < COINBASE_MATURITY + 2) await generate(COINBASE_MATURITY + 2 - h, undefined);
    await send(await newAddress('mweb'), 1);
  };

  const stop = () => {
    stopped ??= (async () => {
      await rpc('stop').catch(() => undefined);
      const timedOut = await Promise.race([
        proc.exited.then(() => false),
        sleep(STOP_TIMEOUT_MS).then(() => true),
      ]);
      if (timedOut) {
        proc.child.kill('SIGKILL');
        await proc.exited;
      }
      process.removeListener('exit', onExit);
      rmSync(datadir, { recursive: true, force: true });
    })();
    return stopped;
  };

  return {
    rpcUrl: `http://${ctx.user}:${ctx.password}@127.0.0.1:${ctx.rpcPort}/`,
    datadir,
    rpc,
    mine,
    newAddress,
    send,
    prepareMweb,
    stop,
  };
}
