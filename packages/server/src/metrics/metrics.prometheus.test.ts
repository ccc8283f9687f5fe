import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePorts, getJson, stopProcess, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime.js';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const unavailable = [PROMETHEUS, PROMTOOL]
  .filter((p) => !existsSync(p))
  .map((p) => `${p} is not installed (scripts/install-prometheus.sh installs it)`)
  .join('; ');
if (unavailable) console.log(`[server] Prometheus tests skipped: ${unavailable}`);

const BLOCKS = 12;
const alerts = fileURLToPath(
  new URL('../../../../examples/standalone/prometheus-alerts.yml', import.meta.url),
);
const run = promisify(execFile);

/** promtool's verdict: its exit code and everything it printed. */
async function promtool(args: string[], input?: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(PROMTOOL, args, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

describe.skipIf(unavailable !== '')('a real Prometheus scraping the explorer (PGlite, devnet)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-prometheus-'));
  let runtime: Runtime;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl = '';
  let prometheusLog = '';

  beforeAll(async () => {
    runtime = await createRuntime(
      loadConfig({
        EXPLORER_DATA_DIR: join(dir, 'explorer'),
        PORT: '0',
        METRICS_PORT: '0',
        DEVNET_BLOCKS: String(BLOCKS),
        DEVNET_INTERVAL_MS: '0',
        INDEXER_POLL_MS: '50',
      }),
      { log: createLogger({ level: 'silent' }) },
    );
    // Mining is stopped: once synced, the height Prometheus scrapes is the one /v1/status reports.
    await waitFor('the index to reach the devnet tip', async () => {
      const { body } = await getJson(`${runtime.url}/v1/status`);
      return body.status?.indexer?.state === 'synced' && body.status.indexer.tipHeight === BLOCKS;
    });
  });

  afterAll(async () => {
    await stopProcess(prometheus);
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes explorer_indexer_height, equal to the tip /v1/status reports', async () => {
    const target = new URL(runtime.metricsUrl!);
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        'scrape_configs:',
        '  - job_name: explorer',
        '    static_configs:',
        `      - targets: ["${target.host}"]`,
        '',
      ].join('\n'),
    );
    // A port free a moment ago may be taken before Prometheus binds it: then it exits, and another is tried.
    for (let attempt = 1; !prometheus; attempt++) {
      const [port] = await freePorts(1);
      const storage = join(dir, `data-${attempt}`);
      mkdirSync(storage);
      const child = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${storage}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=warn',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      child.stderr!.on('data', (d) => {
        prometheusLog += d;
      });
      const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
      const ready = waitFor('Prometheus to be ready', async () =>
        child.exitCode === null ? (await fetch(`http://127.0.0.1:${port}/-/ready`)).ok : 'exited',
      );
      if ((await Promise.race([ready, exited])) === true) {
        prometheus = child;
        prometheusUrl = `http://127.0.0.1:${port}`;
      } else if (attempt >= 3) throw new Error(`Prometheus did not start:\n${prometheusLog}`);
    }

    const query = `${prometheusUrl}/api/v1/query?query=explorer_indexer_height`;
    const value = await waitFor('Prometheus to have scraped explorer_indexer_height', async () => {
      const { body } = await getJson(query);
      const result = body.data?.result as { metric: Record<string, string>; value: [number, string] }[];
      return result?.length ? result : null;
    });
    const { body: status } = await getJson(`${runtime.url}/v1/status`);
    expect(value).toHaveLength(1);
    expect(value[0]!.metric).toMatchObject({ job: 'explorer', instance: target.host });
    expect(Number(value[0]!.value[1])).toBe(status.status.indexer.tipHeight);
    expect(status.status.indexer.tipHeight).toBe(BLOCKS);

    // The target is healthy: Prometheus parsed every scrape.
    const { body: targets } = await getJson(`${prometheusUrl}/api/v1/targets`);
    expect(targets.data.activeTargets).toMatchObject([{ health: 'up', lastError: '' }]);
  });

  it('serves what promtool check metrics accepts without a warning', async () => {
    // Every family present, with samples: a request of each kind, then a scrape.
    await fetch(`${runtime.url}/v1/blocks/3`);
    await fetch(`${runtime.url}/no/such/path`);
    const text = await (await fetch(runtime.metricsUrl!)).text();
    expect(text).toContain('explorer_http_requests_total{');
    const { code, output } = await promtool(['check', 'metrics'], text);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('has alert rules promtool check rules accepts', async () => {
    const { stdout } = await run(PROMTOOL, ['check', 'rules', alerts]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });
});
