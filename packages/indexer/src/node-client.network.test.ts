import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, type NodeClientOptions } from './node-client.js';
import { selfSignedCertificate } from './test-support/tls.js';

// Every way a node can be out of reach, each against a real listener on 127.0.0.1 (or a real lookup), and
// each its own sentence: `fetch failed` alone tells an operator nothing.

const openssl = spawnSync('openssl', ['version']).status === 0;
if (!openssl) console.log('[node-client network] no openssl: the TLS cases are skipped');

const dir = mkdtempSync(join(tmpdir(), 'explorer-node-net-'));
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

const rpc = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ result: 7, error: null, id: 1 }));
};

async function listen(server: Server, port = 0): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** A self-signed certificate naming `names`, made with openssl. */
const certificate = (name: string, names: string) => selfSignedCertificate(dir, name, names);

/** The message a call fails with, after one attempt. */
async function failure(opts: NodeClientOptions): Promise<string> {
  const node = createNodeClient({ attempts: 1, timeoutMs: 20_000, ...opts });
  try {
    await node.call('getblockcount');
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${opts.url} answered`);
}

describe('a node out of reach, by cause', () => {
  let plain: number;
  let status401: number;
  let status403: number;
  let status404: number;
  let closed: number;
  let tls: number;
  let tlsOther: number;
  let trusted: { cert: Buffer };
  let other: { cert: Buffer };

  beforeAll(async () => {
    plain = await listen(createHttpServer((_req, res) => rpc(res)));
    const answer = (status: number) =>
      createHttpServer((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status === 404 ? '' : 'no');
      });
    status401 = await listen(answer(401));
    status403 = await listen(answer(403));
    status404 = await listen(answer(404));
    // A port that was free a moment ago, and nothing listens on now.
    const probe = createHttpServer();
    closed = await listen(probe);
    await new Promise((r) => probe.close(r));
    servers.splice(servers.indexOf(probe), 1);
    if (openssl) {
      const self = certificate('node', 'DNS:localhost,IP:127.0.0.1');
      trusted = self;
      tls = await listen(createHttpsServer(self, (_req, res) => rpc(res)));
      other = certificate('elsewhere', 'DNS:elsewhere.example');
      tlsOther = await listen(createHttpsServer(other, (_req, res) => rpc(res)));
    }
  });

  it('a listener that answers JSON-RPC is reached (the control)', async () => {
    expect(await createNodeClient({ url: `http://127.0.0.1:${plain}/` }).call('getblockcount')).toBe(7);
  });

  it('names each cause in its own sentence', async () => {
    // A port on fetch's blocked list, with a real listener on it when it is free: fetch never connects.
    const bad = await listen(
      createHttpServer((_req, res) => rpc(res)),
      4190,
    ).catch(() => 4190);
    const cases: [string, NodeClientOptions, RegExp][] = [
      [
        'refused',
        { url: `http://127.0.0.1:${closed}/` },
        new RegExp(`nothing accepts connections on 127\\.0\\.0\\.1:${closed}.*\\(ECONNREFUSED\\)`),
      ],
      [
        'blocked port',
        { url: `http://u:p@127.0.0.1:${bad}/` },
        /port 4190 is on the list of ports fetch refuses to connect to .*\(bad port\)/,
      ],
      [
        'DNS',
        { url: 'http://nonexistent.invalid:8332/' },
        /the host name nonexistent\.invalid does not resolve \(DNS (ENOTFOUND|EAI_AGAIN)\)/,
      ],
      [
        '401',
        { url: `http://u:wrong@127.0.0.1:${status401}/` },
        /the node refused the credentials \(HTTP 401\): check the user and password in NODE_RPC_URL/,
      ],
      [
        '403',
        { url: `http://u:p@127.0.0.1:${status403}/` },
        /the node forbids requests from this address \(HTTP 403\): allow it with the node's rpcallowip/,
      ],
      [
        'wrong path',
        { url: `http://u:p@127.0.0.1:${status404}/rpc/v1` },
        /nothing answers JSON-RPC at http:\/\/127\.0\.0\.1:\d+\/rpc\/v1 \(HTTP 404\): check the URL's path/,
      ],
      [
        'TLS to a plain port',
        { url: `https://127.0.0.1:${plain}/` },
        /TLS: the node does not speak TLS on this port .*use http:\/\//,
      ],
    ];
    if (openssl)
      cases.push(
        [
          'self-signed',
          { url: `https://127.0.0.1:${tls}/` },
          /TLS: the node's certificate is self-signed, .*\(DEPTH_ZERO_SELF_SIGNED_CERT\): give that certificate with NODE_RPC_CERT/,
        ],
        [
          'a certificate for another name',
          { url: `https://127.0.0.1:${tlsOther}/`, tlsCa: other.cert },
          /TLS: the node's certificate does not name 127\.0\.0\.1 \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
        ],
        [
          'plain HTTP to a TLS port',
          { url: `http://127.0.0.1:${tls}/` },
          /127\.0\.0\.1:\d+ (answered something that is not HTTP|closed the connection before it answered)/,
        ],
      );
    const sentences = new Map<string, string>();
    for (const [what, opts, expected] of cases) {
      const message = await failure(opts);
      expect(message, what).toMatch(expected);
      expect(message, what).not.toContain('fetch failed');
      sentences.set(what, message.replace(/\d+/g, 'N'));
    }
    // Each cause its own sentence.
    expect(new Set(sentences.values()).size).toBe(cases.length);
    if (openssl) {
      // And the self-signed certificate, once trusted, is reached.
      expect(
        await createNodeClient({ url: `https://127.0.0.1:${tls}/`, tlsCa: trusted.cert }).call(
          'getblockcount',
        ),
      ).toBe(7);
    }
  });
});
