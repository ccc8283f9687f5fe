import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_NETWORKS, coreNetworksByChain } from '@explorer/chain';

/**
 * A node's cookie that cannot be used; the message names the file and what to do, never the cookie.
 * `problem` is the message without its leading "node cookie:", to follow the setting's name.
 */
export class NodeCookieError extends Error {
  override readonly name = 'NodeCookieError';
  constructor(readonly problem: string) {
    super(`node cookie: ${problem}`);
  }
}

/** Where a cookie was found: the file, and the data dir it was looked up in (null when a file was named). */
export interface CookieLocation {
  file: string;
  dataDir: string | null;
}

/** The folders of a data dir a Core node keeps its networks in ('' for mainnet), each once, mainnet first. */
const ALL_SUBDIRS = [...new Set(CORE_NETWORKS.map((n) => n.dataSubdir))];

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The cookie file `path` names: the file itself, or in a node's data dir the `.cookie` of the network, where
 * Bitcoin Core and litecoind write it (`<dir>/.cookie` on mainnet, `testnet3/`, `testnet4/`, `signet/`,
 * `regtest/`). With `network` (Core's chain name, or mainnet/testnet) only that network's folders are looked
 * in; without it, every one, and exactly one cookie must be there.
 * @throws NodeCookieError when the path does not exist, or no cookie (or more than one) is in the data dir.
 * @example findCookieFile('/home/ltc/.litecoin', 'regtest').file // '/home/ltc/.litecoin/regtest/.cookie'
 */
export function findCookieFile(path: string, network: string | null = null): CookieLocation {
  let dir: boolean;
  try {
    dir = statSync(path).isDirectory();
  } catch (err) {
    throw new NodeCookieError(
      `${path} cannot be read (${errno(err)}): the node writes its cookie when it starts, so start it first, or name the file its -rpccookiefile sets, or its data dir`,
    );
  }
  if (!dir) return { file: path, dataDir: null };
  const known = network === null ? [] : coreNetworksByChain(network);
  if (network !== null && known.length === 0) {
    throw new NodeCookieError(
      `names the data dir ${path}, and CHAIN_NETWORK=${network} has no known folder in it: name the cookie file itself`,
    );
  }
  const subdirs = network === null ? ALL_SUBDIRS : [...new Set(known.map((n) => n.dataSubdir))];
  const candidates = subdirs.map((sub) => join(path, sub, '.cookie'));
  const found = candidates.filter(isFile);
  if (found.length === 1) return { file: found[0]!, dataDir: path };
  if (found.length === 0) {
    throw new NodeCookieError(
      `names the data dir ${path}, which holds no cookie (looked for ${subdirs.map((s) => join(s, '.cookie')).join(', ')}): start the node (it writes the cookie when it starts, unless it is given rpcpassword), or name the file its -rpccookiefile sets`,
    );
  }
  throw new NodeCookieError(
    `names the data dir ${path}, which holds more than one cookie (${found.join(', ')}): set CHAIN_NETWORK, or name the file itself`,
  );
}

/**
 * The `user:password` a cookie file holds (`__cookie__:<hex>`), to be sent as basic auth.
 * @throws NodeCookieError when the file cannot be read or holds no `user:password`.
 */
export function readCookie(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new NodeCookieError(
      `${file} cannot be read (${errno(err)}): the node writes it when it starts (and deletes it when it stops); start the node, or let this process read the file`,
    );
  }
  const colon = text.indexOf(':');
  if (colon < 1 || colon === text.length - 1 || text.includes('\n')) {
    throw new NodeCookieError(
      `${file} is not a node's cookie (one line, user:password, as __cookie__:<hex>)`,
    );
  }
  return text;
}
