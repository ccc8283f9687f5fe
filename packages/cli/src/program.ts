import { Command, CommanderError } from 'commander';
import { addressCommand } from './commands/address.js';
import { addressesCommand } from './commands/addresses.js';
import { analyticsCommand } from './commands/analytics.js';
import { blockCommand } from './commands/block.js';
import { blocksCommand } from './commands/blocks.js';
import { completionCommand } from './commands/completion.js';
import { feesCommand } from './commands/fees.js';
import { labelsCommand } from './commands/labels.js';
import { marketCommand } from './commands/market.js';
import { meCommand } from './commands/me.js';
import { mempoolCommand } from './commands/mempool.js';
import { minerCommand } from './commands/miner.js';
import { minersCommand } from './commands/miners.js';
import { poolCommand } from './commands/pool.js';
import { poolsCommand } from './commands/pools.js';
import { searchCommand } from './commands/search.js';
import { statusCommand } from './commands/status.js';
import { suggestCommand } from './commands/suggest.js';
import { txCommand } from './commands/tx.js';
import { txsCommand } from './commands/txs.js';
import { walletCommand } from './commands/wallet.js';
import { watchCommand } from './commands/watch.js';
import {
  type CliIo,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_WAIT_SECONDS,
  DEFAULT_TIMEOUT_MS,
  type GlobalOptions,
  parseMaxWait,
} from './context.js';
import { EXIT, errorLine, exitCodeOf } from './errors.js';
import { CLI_VERSION } from './version.js';

const NOTES = `Output: a table when stdout is a terminal; JSON (the answer without ok/meta) when stdout is not a terminal
and neither --json, --ndjson nor --table is given. Tables show amounts in coins (8 decimals) unless
--base-units; JSON and NDJSON always carry the API's integer base units.

Exit codes: 0 ok, 1 unexpected, 2 usage, 3 not found (404), 4 bad request (400), 5 auth (401),
6 rate limited (429), 7 server/unavailable (5xx), 8 network/timeout, 130 interrupted (Ctrl-C).
A 429 or 503 with Retry-After is waited for (one line on stderr says how long), up to --max-wait.
`;

/**
 * Builds the `explorer` program: global options and one subcommand per resource, writing to `io`.
 * @example await createProgram(io).parseAsync(['blocks', '--limit', '5'], { from: 'user' })
 */
export function createProgram(io: CliIo): Command {
  const program = new Command('explorer')
    .description('Command line of the explorer API: blocks, transactions, addresses, miners, pools and more.')
    .version(CLI_VERSION, '-V, --version')
    .option('--base-url <url>', `API server (env EXPLORER_BASE_URL; default ${DEFAULT_BASE_URL})`)
    .option('--api-key <key>', 'API key sent as X-API-Key (env EXPLORER_API_KEY); never printed')
    .option('--timeout <ms>', `per-request timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS})`)
    .option(
      '--max-wait <seconds>',
      `longest Retry-After (429, 503) to wait for before asking again (default ${DEFAULT_MAX_WAIT_SECONDS}; 0 never waits)`,
    )
    .option('--json', 'print JSON: the answer without ok/meta (default when stdout is not a terminal)')
    .option('--ndjson', 'print list rows as newline-delimited JSON, one row per line')
    .option('--table', 'print a table even when stdout is not a terminal')
    .option('--base-units', 'show amounts in tables as integer base units instead of coins')
    .option('--no-progress', 'never draw the --all progress bar (it is drawn only when stderr is a terminal)')
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride()
    .addHelpText('afterAll', NOTES);
  withProgramExamples(program);
  blocksCommand(program, io);
  blockCommand(program, io);
  txsCommand(program, io);
  txCommand(program, io);
  addressCommand(program, io);
  addressesCommand(program, io);
  walletCommand(program, io);
  minersCommand(program, io);
  minerCommand(program, io);
  poolsCommand(program, io);
  poolCommand(program, io);
  analyticsCommand(program, io);
  marketCommand(program, io);
  searchCommand(program, io);
  suggestCommand(program, io);
  mempoolCommand(program, io);
  feesCommand(program, io);
  labelsCommand(program, io);
  statusCommand(program, io);
  meCommand(program, io);
  watchCommand(program, io);
  completionCommand(program, io);
  return program;
}

function withProgramExamples(program: Command): void {
  program.addHelpText(
    'after',
    '\nExamples:\n  $ explorer blocks --limit 5\n  $ explorer address <address> txs --all --ndjson\n  $ EXPLORER_BASE_URL=https://api.example.org explorer status\n',
  );
}

/**
 * Runs the command line on arguments (without `node` and the script) and answers the exit code. Never throws.
 * @example process.exitCode = await runCli(['blocks', '--limit', '5'], io)
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    // Commander has already printed its message (unknown option, missing argument, --help …).
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    // The line may name --max-wait (a Retry-After longer than it): a global option, parsed on the program.
    const maxWaitSeconds = parseMaxWait(program.opts<GlobalOptions>().maxWait) ?? undefined;
    io.stderr.write(`${errorLine(err, { maxWaitSeconds })}\n`);
    return exitCodeOf(err);
  }
}
