import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { PearlNetworkName } from '@explorer/chain';
import { genesisTimeEndingAt } from './history.js';
import type { DevnetOptions } from './options.js';
import type { ReplayOptions } from './replay/replay-devnet.js';
import { readReplayFile } from './replay/replay-file.js';
import type { ListenOptions } from './rpc-server.js';

/** The command line of explorer-devnet. */
export const DEVNET_USAGE = `usage: explorer-devnet [--dialect pearl|bitcoin] [--seed S] [--blocks N] [--tx-per-block K] [--interval-ms M]
                       [--genesis-time UNIX_SECONDS] [--port P] [--host H] [--rpc-user U] [--rpc-password W]
                       [--rpc-cert FILE --rpc-key FILE] [--definitions-dir D] [--coinbase-maturity C]
                       [--proof-min BYTES] [--proof-max BYTES] [--hd-wallet KEY] [--hd-wallet-addresses R,C]
       explorer-devnet --replay BLOCKS.json [--replay-revealed N] [--network regtest|simnet|…] [--interval-ms M]
                       [--port P] [--host H] [--rpc-user U] [--rpc-password W] [--rpc-cert FILE --rpc-key FILE]`;

/** What the command line asks for: a generated chain or a replay of given blocks, served the same way. */
export type DevnetCommand = {
  listen: ListenOptions;
  /** Mining interval (generated) or reveal interval (replay); 0: none. */
  intervalMs: number;
} & (
  | { kind: 'generate'; options: DevnetOptions; definitionsDir: string | undefined }
  | { kind: 'replay'; replay: ReplayOptions }
  | { kind: 'help' }
);

function num(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
  return n;
}

/**
 * Reads explorer-devnet's arguments. Without `--genesis-time` the generated history ends about `nowSeconds`
 * (as the embedded server's devnet does); with it, the chain is the same at every start.
 * @throws Error with a message for the user when an argument is wrong.
 */
export function parseDevnetArgs(argv: string[], nowSeconds: number): DevnetCommand {
  const { values } = parseArgs({
    args: argv,
    options: {
      dialect: { type: 'string' },
      seed: { type: 'string' },
      blocks: { type: 'string' },
      'tx-per-block': { type: 'string' },
      'interval-ms': { type: 'string' },
      'genesis-time': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'rpc-user': { type: 'string' },
      'rpc-password': { type: 'string' },
      'rpc-cert': { type: 'string' },
      'rpc-key': { type: 'string' },
      'definitions-dir': { type: 'string' },
      'coinbase-maturity': { type: 'string' },
      'proof-min': { type: 'string' },
      'proof-max': { type: 'string' },
      'hd-wallet': { type: 'string' },
      'hd-wallet-addresses': { type: 'string' },
      replay: { type: 'string' },
      'replay-revealed': { type: 'string' },
      network: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (Boolean(values['rpc-cert']) !== Boolean(values['rpc-key']))
    throw new Error('--rpc-cert and --rpc-key go together');
  const listen: ListenOptions = {
    port: num(values.port, 'port') ?? 0,
    host: values.host,
    user: values['rpc-user'],
    password: values['rpc-password'],
    ...(values['rpc-cert'] && values['rpc-key']
      ? { tls: { cert: readFileSync(values['rpc-cert']), key: readFileSync(values['rpc-key']) } }
      : {}),
  };
  const intervalMs = num(values['interval-ms'], 'interval-ms') ?? 0;
  if (values.help) return { kind: 'help', listen, intervalMs };
  if (values.replay) {
    const generating = [
      'dialect',
      'seed',
      'blocks',
      'tx-per-block',
      'genesis-time',
      'definitions-dir',
      'hd-wallet',
      'hd-wallet-addresses',
    ] as const;
    const clash = generating.find((k) => values[k] !== undefined);
    if (clash) throw new Error(`--${clash} generates a chain: it does not go with --replay`);
    const replay: ReplayOptions = {
      blocks: readReplayFile(values.replay),
      revealed: num(values['replay-revealed'], 'replay-revealed'),
      network: values.network as PearlNetworkName | undefined,
    };
    return { kind: 'replay', replay, listen, intervalMs };
  }
  if (values['replay-revealed'] || values.network)
    throw new Error('--replay-revealed and --network go with --replay');
  const dialect = values.dialect ?? 'pearl';
  if (dialect !== 'pearl' && dialect !== 'bitcoin') throw new Error('--dialect must be pearl or bitcoin');
  const blocks = num(values.blocks, 'blocks') ?? 200;
  if (values['hd-wallet-addresses'] !== undefined && values['hd-wallet'] === undefined)
    throw new Error('--hd-wallet-addresses goes with --hd-wallet');
  const hdCounts = values['hd-wallet-addresses']?.split(',').map((n) => num(n, 'hd-wallet-addresses'));
  if (hdCounts && (hdCounts.length !== 2 || hdCounts.some((n) => n === undefined)))
    throw new Error('--hd-wallet-addresses takes two counts: receive,change (e.g. 10,5)');
  const targetSpacing = 150;
  const options: DevnetOptions = {
    dialect,
    seed: values.seed,
    blocks,
    txPerBlock: num(values['tx-per-block'], 'tx-per-block'),
    coinbaseMaturity: num(values['coinbase-maturity'], 'coinbase-maturity'),
    targetSpacing,
    genesisTime:
      num(values['genesis-time'], 'genesis-time') ?? genesisTimeEndingAt(nowSeconds, blocks, targetSpacing),
    ...(values['proof-min'] || values['proof-max']
      ? {
          proofSize: [
            num(values['proof-min'], 'proof-min') ?? 200,
            num(values['proof-max'], 'proof-max') ?? 60_000,
          ],
        }
      : {}),
    ...(values['hd-wallet'] !== undefined ? { hdWallet: values['hd-wallet'] } : {}),
    ...(hdCounts ? { hdWalletAddresses: hdCounts as [number, number] } : {}),
  };
  return { kind: 'generate', options, definitionsDir: values['definitions-dir'], listen, intervalMs };
}
