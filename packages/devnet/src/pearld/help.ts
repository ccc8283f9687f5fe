import { RpcError } from '../rpc-error.js';

/** pearld's one-line usage of the calls the devnet answers, as its `help` lists them; the devnet's own after. */
const USAGE: Record<string, string> = {
  generate: 'generate numblocks',
  getbestblock: 'getbestblock',
  getbestblockhash: 'getbestblockhash',
  getblock: 'getblock "hash" (verbosity=1)',
  getblockchaininfo: 'getblockchaininfo',
  getblockcount: 'getblockcount',
  getblockhash: 'getblockhash index',
  getblockheader: 'getblockheader "hash" (verbose=true)',
  getchaintips: 'getchaintips',
  getdifficulty: 'getdifficulty',
  getmempoolinfo: 'getmempoolinfo',
  getnetworkhashps: 'getnetworkhashps (blocks=120 height=-1)',
  getrawmempool: 'getrawmempool (verbose=false)',
  getrawtransaction: 'getrawtransaction "txid" (verbose=0)',
  help: 'help ("command")',
  searchrawtransactions:
    'searchrawtransactions "address" (verbose=1 skip=0 count=100 vinextra=0 reverse=false ["filteraddr",...])',
  version: 'version',
  devnet_addtxs: 'devnet_addtxs (count=1 feerate)',
  devnet_hash: 'devnet_hash',
  devnet_reorg: 'devnet_reorg depth (extra=1)',
  devnet_step: 'devnet_step (count=1)',
  devnet_truth: 'devnet_truth',
};

/**
 * pearld's `help`: with no argument, one usage line per call the node answers, sorted; with a call's name, its
 * usage. Only the calls in `methods` are listed (pearld leaves its unimplemented ones out too).
 */
export function pearldHelp(methods: readonly string[], params: unknown[]): string {
  const known = methods.filter((m) => Object.hasOwn(USAGE, m));
  const command = params[0];
  if (command === undefined || command === null || command === '')
    return known
      .sort()
      .map((m) => USAGE[m])
      .join('\n');
  if (typeof command !== 'string' || !known.includes(command))
    throw new RpcError(-8, `Unknown command: ${String(command)}`);
  return USAGE[command] as string;
}
