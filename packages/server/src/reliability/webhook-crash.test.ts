import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listWebhookDeliveries, openDatabase, type Sql } from '@explorer/db';
import { createDevnet, type Devnet } from '@explorer/devnet';
import {
  getJson,
  listen,
  pgSkipReason,
  scratchDatabase,
  TEST_SERVER_SETTINGS,
  type TestServer,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Started, startProcess } from '../test-support/processes.js';
import { verifyWebhookSignature } from '../webhooks/signature.js';

// At-least-once across a crash: the server is killed with SIGKILL while a delivery is in flight (the receiver
// holds the request open). The outbox row keeps its lease; the restarted server delivers that same event.

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const reason = pgSkipReason() ?? (existsSync(serverBin) ? null : 'the server is not built (run pnpm build)');
if (reason) console.log(`[webhook-crash] ${reason}: test skipped`);

describe.skipIf(reason !== null)('webhook delivery across kill -9 (pg, built server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-webhook-crash-'));
  const cleanup: (() => Promise<unknown>)[] = [];
  let devnet: Devnet;
  let env: Record<string, string>;
  let reader: Sql;
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  let receiver: TestServer;

  beforeAll(async () => {
    devnet = createDevnet({ seed: 'webhook-crash', blocks: 40, txPerBlock: 3, coinbaseMaturity: 5 });
    const node = await devnet.listen({ port: 0 });
    cleanup.push(node.close);
    const files = devnet.writeDefinitions(dir);
    const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'webhook_crash');
    cleanup.push(db.drop);
    // The first request is held open and never answered; later ones get a 200.
    receiver = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (got.length > 1) res.writeHead(200).end();
      });
    });
    cleanup.push(receiver.close);
    env = {
      DATABASE_URL: db.url,
      NODE_RPC_URL: node.url,
      POOLS_FILE: files.poolsFile,
      LABELS_FILE: files.labelsFile,
      EXPLORER_DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      INDEXER_POLL_MS: '50',
      ...TEST_SERVER_SETTINGS,
      // Short, so the restarted server need not wait long for the crashed attempt's lease to run out.
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_MS: '3000',
    };
  });
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<Started> {
    const server = await startProcess(
      [serverBin, 'start', '--port', '0'],
      env,
      /listening on (http:\/\/\S+)/,
    );
    cleanup.push(async () => server.proc.kill('SIGKILL'));
    const url = server.match[1]!;
    await waitFor(
      'the indexer to sync',
      async () => (await getJson(`${url}/v1/status`)).body.status?.indexer?.tipHeight === devnet.height(),
      60_000,
    );
    return server;
  }

  it('a server killed mid-delivery delivers the same event after restart', async () => {
    const first = await start();
    // Added with the real command, while the server runs.
    const add = spawnSync(
      process.execPath,
      [serverBin, 'webhooks', 'add', `${receiver.url}/hook`, '--events', 'block', '--json'],
      { env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    expect(add.stderr).toBe('');
    expect(add.status).toBe(0);
    const hook = JSON.parse(add.stdout) as { id: string; secret: string };

    devnet.mine(1);
    await waitFor('the delivery to reach the receiver', async () => got.length === 1, 30_000);
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));

    reader = await openDatabase({ url: env.DATABASE_URL, migrate: false, poolSize: 1 });
    cleanup.push(() => reader.close());
    const [inFlight] = await listWebhookDeliveries(reader, { webhookId: hook.id });
    expect(inFlight).toMatchObject({ status: 'pending', attempts: 1, lastError: null });
    const eventId = got[0]!.headers['explorer-event-id'];
    expect(eventId).toBe(inFlight!.eventId);
    expect(JSON.parse(got[0]!.body)).toMatchObject({
      id: eventId,
      type: 'block',
      data: { height: devnet.height() },
    });

    const second = await start();
    await waitFor(
      'the delivery after the restart',
      async () => (await listWebhookDeliveries(reader, { webhookId: hook.id }))[0]?.status === 'delivered',
      30_000,
    );
    expect(got).toHaveLength(2);
    const again = got[1]!;
    expect(again.headers['explorer-event-id']).toBe(eventId);
    expect(again.headers['explorer-delivery-attempt']).toBe('2');
    expect(again.body).toBe(got[0]!.body);
    const header = again.headers['explorer-signature'] as string;
    expect(verifyWebhookSignature({ secret: hook.secret, header, body: again.body }).ok).toBe(true);
    const [done] = await listWebhookDeliveries(reader, { webhookId: hook.id });
    expect(done).toMatchObject({ eventId, status: 'delivered', attempts: 2, lastStatus: 200 });
    second.proc.kill('SIGTERM');
    await new Promise((r) => second.proc.once('exit', r));
  });
});
