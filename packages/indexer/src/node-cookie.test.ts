import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findCookieFile, NodeCookieError, readCookie } from './node-cookie.js';

const COOKIE = `__cookie__:${'5e'.repeat(32)}`;

describe('finding and reading a node’s cookie', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'datadir-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const put = (sub: string) => {
    mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, sub, '.cookie'), COOKIE);
    return join(dir, sub, '.cookie');
  };

  it('takes a file as it is named, and reads user:password from it', () => {
    const file = join(dir, 'rpc.cookie');
    writeFileSync(file, `${COOKIE}\n`);
    expect(findCookieFile(file)).toEqual({ file, dataDir: null });
    expect(readCookie(file)).toBe(COOKIE);
  });

  it('finds the one cookie in a data dir, in the folder of the network the node runs', () => {
    const regtest = put('regtest');
    expect(findCookieFile(dir)).toEqual({ file: regtest, dataDir: dir });
    expect(findCookieFile(dir, 'regtest').file).toBe(regtest);
    // Litecoin's testnet lives in testnet4/, Bitcoin's in testnet3/: `test` looks in both.
    rmSync(join(dir, 'regtest'), { recursive: true });
    const testnet4 = put('testnet4');
    expect(findCookieFile(dir, 'test').file).toBe(testnet4);
    expect(findCookieFile(dir, 'testnet').file).toBe(testnet4);
    expect(findCookieFile(dir, 'testnet4').file).toBe(testnet4);
    const main = put('');
    expect(findCookieFile(dir, 'main').file).toBe(main);
    expect(findCookieFile(dir, 'mainnet').file).toBe(main);
  });

  it('says what to do when there is no cookie, more than one, or the network has no folder', () => {
    expect(() => findCookieFile(join(dir, 'nowhere'))).toThrow(
      new NodeCookieError(
        `${join(dir, 'nowhere')} cannot be read (ENOENT): the node writes its cookie when it starts, so start it first, or name the file its -rpccookiefile sets, or its data dir`,
      ),
    );
    expect(() => findCookieFile(dir)).toThrow(
      `node cookie: names the data dir ${dir}, which holds no cookie (looked for .cookie, testnet3/.cookie, testnet4/.cookie, signet/.cookie, regtest/.cookie): start the node`,
    );
    put('');
    put('regtest');
    expect(() => findCookieFile(dir)).toThrow(
      `names the data dir ${dir}, which holds more than one cookie (${join(dir, '.cookie')}, ${join(dir, 'regtest', '.cookie')}): set CHAIN_NETWORK, or name the file itself`,
    );
    expect(findCookieFile(dir, 'regtest').file).toBe(join(dir, 'regtest', '.cookie'));
    expect(() => findCookieFile(dir, 'simnet')).toThrow(
      `names the data dir ${dir}, and CHAIN_NETWORK=simnet has no known folder in it: name the cookie file itself`,
    );
  });

  it('refuses a file that is not a cookie without echoing it', () => {
    const file = join(dir, 'not-a-cookie');
    for (const text of ['secret-without-colon', ':nouser', 'nopassword:', 'a:b\nc:d']) {
      writeFileSync(file, text);
      expect(() => readCookie(file), text).toThrow(
        new NodeCookieError(`${file} is not a node's cookie (one line, user:password, as __cookie__:<hex>)`),
      );
    }
    expect(() => readCookie(join(dir, 'gone'))).toThrow(
      /gone cannot be read \(ENOENT\): the node writes it when it starts/,
    );
  });
});
