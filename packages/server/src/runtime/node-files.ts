import { readFileSync } from 'node:fs';
import type { Logger } from '@explorer/core';
import { findCookieFile, NodeCookieError, readCookie } from '@explorer/indexer';
import { ConfigError, type ServerConfig } from '../config/index.js';

/** What the node's clients need from files: the certificate to trust and the cookie file, when configured. */
export interface NodeFiles {
  tlsCa: Buffer | undefined;
  cookieFile: string | undefined;
}

/**
 * Reads the node's files before anything is opened: a missing certificate or cookie stops the start with one
 * line naming the setting.
 */
export function readNodeFiles(config: ServerConfig, log: Logger): NodeFiles {
  return {
    tlsCa: config.nodeRpcCert ? readCertificate(config.nodeRpcCert) : undefined,
    cookieFile: config.nodeRpcCookie ? nodeCookieFile(config, log) : undefined,
  };
}

/** The node's TLS certificate, read once at start; an unreadable file stops the start with one line. */
function readCertificate(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ConfigError(
      'NODE_RPC_CERT',
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ${path}`,
    );
  }
}

/**
 * The node's cookie file (NODE_RPC_COOKIE: the file, or a data dir to find it in), read once now so that a
 * missing or unreadable one stops the start with one line; where it was found is logged, never its content.
 */
function nodeCookieFile(config: ServerConfig, log: Logger): string {
  const named = config.nodeRpcCookie as string;
  try {
    const { file, dataDir } = findCookieFile(named, config.chainNetwork);
    readCookie(file);
    if (dataDir) log.info({ cookieFile: file, dataDir }, 'node cookie found in the data dir');
    else log.info({ cookieFile: file }, 'node cookie');
    return file;
  } catch (err) {
    if (err instanceof NodeCookieError) throw new ConfigError('NODE_RPC_COOKIE', err.problem);
    throw err;
  }
}
