#!/usr/bin/env node
import { DEVNET_USAGE, parseDevnetArgs } from './bin-options.js';
import { createDevnet } from './devnet.js';
import { createReplayDevnet } from './replay/replay-devnet.js';

/** CLI entry: builds (or loads) the chain, serves RPC, mines every interval, prints the URL as one JSON line. */
async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const command = parseDevnetArgs(argv, Date.now() / 1000);
  if (command.kind === 'help') {
    process.stdout.write(`${DEVNET_USAGE}\n`);
    return;
  }
  let devnet: ReturnType<typeof createDevnet> | ReturnType<typeof createReplayDevnet>;
  let extra: Record<string, unknown> = {};
  if (command.kind === 'replay') {
    const replay = createReplayDevnet(command.replay);
    devnet = replay;
    extra = { remaining: replay.remaining() };
  } else {
    const generated = createDevnet(command.options);
    devnet = generated;
    if (command.definitionsDir) extra = generated.writeDefinitions(command.definitionsDir);
  }
  const server = await devnet.listen(command.listen);
  if (command.intervalMs > 0) devnet.startMining(command.intervalMs);
  process.stdout.write(
    `${JSON.stringify({ url: server.url, port: server.port, height: devnet.height(), tip: devnet.tipHash(), ...extra })}\n`,
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
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${DEVNET_USAGE}\n`);
  process.exit(1);
});
