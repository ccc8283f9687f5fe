#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createDevnet } from './devnet.js';

const USAGE = `usage: explorer-devnet [--dialect pearl|bitcoin] [--seed S] [--blocks N] [--tx-per-block K] [--interval-ms M]
                       [--port P] [--host H] [--rpc-user U] [--rpc-password W] [--rpc-cert FILE --rpc-key FILE]
                       [--definitions-dir D] [--coinbase-maturity C] [--proof-min BYTES] [--proof-max BYTES]`;

function num(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
  return n;
}

/** CLI entry: builds the chain, serves RPC, mines every interval, prints the URL as one JSON line. */
async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dialect: { type: 'string' },
      seed: { type: 'string' },
      blocks: { type: 'string' },
      'tx-per-block': { type: 'string' },
      'interval-ms': { type: 'string' },
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
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dialect = values.dialect ?? 'pearl';
  if (dialect !== 'pearl' && dialect !== 'bitcoin') throw new Error('--dialect must be pearl or bitcoin');
  if (Boolean(values['rpc-cert']) !== Boolean(values['rpc-key']))
    throw new Error('--rpc-cert and --rpc-key go together');
  const devnet = createDevnet({
    dialect,
    seed: values.seed,
    blocks: num(values.blocks, 'blocks'),
    txPerBlock: num(values['tx-per-block'], 'tx-per-block'),
    coinbaseMaturity: num(values['coinbase-maturity'], 'coinbase-maturity'),
    ...(values['proof-min'] || values['proof-max']
      ? {
          proofSize: [
            num(values['proof-min'], 'proof-min') ?? 200,
            num(values['proof-max'], 'proof-max') ?? 60_000,
          ],
        }
      : {}),
  });
  const files = values['definitions-dir'] ? devnet.writeDefinitions(values['definitions-dir']) : undefined;
  const server = await devnet.listen({
    port: num(values.port, 'port') ?? 0,
    host: values.host,
    user: values['rpc-user'],
    password: values['rpc-password'],
    ...(values['rpc-cert'] && values['rpc-key']
      ? { tls: { cert: readFileSync(values['rpc-cert']), key: readFileSync(values['rpc-key']) } }
      : {}),
  });
  const interval = num(values['interval-ms'], 'interval-ms') ?? 0;
  if (interval > 0) devnet.startMining(interval);
  process.stdout.write(
    `${JSON.stringify({ url: server.url, port: server.port, height: devnet.height(), tip: devnet.tipHash(), ...files })}\n`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    devnet.stopMining();
    server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exit(1);
});
