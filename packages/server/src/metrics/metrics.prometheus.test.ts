import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  freePorts,
  getJson,
  pgSkipReason,
  scratchDatabase,
  seedDataDir,
  stopProcess,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime/index.js';

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
const alertTests = fileURLToPath(
  new URL('../../../../examples/standalone/prometheus-alerts.test.yml', import.meta.url),
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

/** A running Prometheus: its process and its URL. */
interface StartedPrometheus {
  child: ChildProcess;
  url: string;
}

/**
 * Starts Prometheus scraping `target` (host:port) as job `explorer`, every `scrapeSeconds`, evaluating the rule
 * files given every second; its files go under `dir`.
 */
async function startPrometheus(
  dir: string,
  target: string,
  opts: { scrapeSeconds: number; ruleFiles?: string[] },
): Promise<StartedPrometheus> {
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      `  scrape_interval: ${opts.scrapeSeconds}s`,
      '  scrape_timeout: 1s',
      '  evaluation_interval: 1s',
      ...(opts.ruleFiles?.length
        ? ['rule_files:', ...opts.ruleFiles.map((f) => `  - ${JSON.stringify(f)}`)]
        : []),
      'scrape_configs:',
      '  - job_name: explorer',
      '    static_configs:',
      `      - targets: ["${target}"]`,
      '',
    ].join('\n'),
  );
  let log = '';
  // A port free a moment ago may be taken before Prometheus binds it: then it exits, and another is tried.
  for (let attempt = 1; ; attempt++) {
    const [port] = await freePorts(1);
    const storage = join(dir, `data-${attempt}`);
    mkdirSync(storage);
    const child = spawn(
      PROMETHEUS,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${storage}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (d) => {
      log += d;
    });
    const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
    const ready = waitFor('Prometheus to be ready', async () =>
      child.exitCode === null ? (await fetch(`http://127.0.0.1:${port}/-/ready`)).ok : 'exited',
    );
    if ((await Promise.race([ready, exited])) === true) return { child, url: `http://127.0.0.1:${port}` };
    if (attempt >= 3) throw new Error(`Prometheus did not start:\n${log}`);
  }
}

describe.skipIf(unavailable !== '')('a real Prometheus scraping the explorer (PGlite, devnet)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-prometheus-'));
  let runtime: Runtime;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl = '';

  beforeAll(async () => {
    runtime = await createRuntime(
      loadConfig({
        EXPLORER_DATA_DIR: await seedDataDir(join(dir, 'explorer')),
        PORT: '0',
        ...TEST_SERVER_SETTINGS,
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
    const started = await startPrometheus(dir, target.host, { scrapeSeconds: 1 });
    prometheus = started.child;
    prometheusUrl = started.url;

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

/** The alert rules' `for:` in the test's copy: long enough for several scrapes, short enough to wait for. */
const FOR_SECONDS = 6;
/** Scrapes further apart than the metrics' one-second snapshot, so that every scrape reads the database anew. */
const SCRAPE_SECONDS = 2;
const pgUnavailable = unavailable || pgSkipReason();
if (!unavailable && pgUnavailable) console.log(`[server] idle PostgreSQL scrape skipped: ${pgUnavailable}`);

describe.skipIf(Boolean(pgUnavailable))(
  'a real Prometheus scraping an idle explorer on PostgreSQL, with the shipped alert rules (needs TEST_DATABASE_URL)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'explorer-prometheus-pg-'));
    let runtime: Runtime | undefined;
    let prometheus: ChildProcess | undefined;
    let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;

    beforeAll(async () => {
      database = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'prometheus');
      runtime = await createRuntime(
        loadConfig({
          DATABASE_URL: database.url,
          EXPLORER_DATA_DIR: join(dir, 'explorer'),
          PORT: '0',
          ...TEST_SERVER_SETTINGS,
          METRICS_PORT: '0',
          DEVNET_BLOCKS: String(BLOCKS),
          DEVNET_INTERVAL_MS: '0',
        }),
        { log: createLogger({ level: 'silent' }) },
      );
      await waitFor('the index to reach the devnet tip', async () => {
        const { body } = await getJson(`${runtime!.url}/v1/status`);
        return body.status?.indexer?.state === 'synced' && body.status.indexer.tipHeight === BLOCKS;
      });
    });

    afterAll(async () => {
      await stopProcess(prometheus);
      await runtime?.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('keeps every alert inactive past its for:, the pool reading no caller waiting at any scrape', async () => {
      // The shipped rules, each `for:` shortened: what fires in minutes on a server fires here in seconds.
      const shipped = readFileSync(alerts, 'utf8');
      const rules = shipped.replace(/^(\s+for: )\d+[smh]$/gm, `$1${FOR_SECONDS}s`);
      expect(rules).not.toMatch(/^\s+for: \d+m$/m);
      expect(rules).toContain(
        `alert: ExplorerDatabasePoolWaiting\n        expr: max by (instance, pool) (explorer_db_pool_waiting) > 0\n        for: ${FOR_SECONDS}s`,
      );
      const ruleFile = join(dir, 'alerts.yml');
      writeFileSync(ruleFile, rules);

      const target = new URL(runtime!.metricsUrl!).host;
      const started = await startPrometheus(dir, target, {
        scrapeSeconds: SCRAPE_SECONDS,
        ruleFiles: [ruleFile],
      });
      prometheus = started.child;
      const api = async (path: string) => (await getJson(`${started.url}/api/v1/${path}`)).body.data;
      const series = 'explorer_db_pool_waiting{pool="primary"}';
      const first = await waitFor('Prometheus to have scraped the primary pool', async () => {
        const result = (await api(`query?query=${encodeURIComponent(series)}`))?.result;
        return result?.length ? Number(result[0].value[0]) : null;
      });
      // Past the `for:` of every rule, counted in Prometheus' own evaluations, after several scrapes.
      const past = first + FOR_SECONDS + 2 * SCRAPE_SECONDS;
      await waitFor('the rules to be evaluated past their for:', async () => {
        const groups = (await api('rules'))?.groups as { lastEvaluation: string }[] | undefined;
        return groups?.length && groups.every((g) => Date.parse(g.lastEvaluation) / 1000 > past);
      });

      const { alerts: active } = await api('alerts');
      expect(active).toEqual([]);
      const window = `${Math.ceil(past - first) + SCRAPE_SECONDS}s`;
      const over = async (fn: string) =>
        Number(
          (await api(`query?query=${encodeURIComponent(`${fn}(${series}[${window}])`)}`)).result[0].value[1],
        );
      expect(await over('count_over_time')).toBeGreaterThanOrEqual(4);
      expect(await over('max_over_time')).toBe(0);
      // The pool was read, and held connections: the scrapes' own queries opened them.
      const idle = (
        await api(
          `query?query=${encodeURIComponent('explorer_db_pool_connections{pool="primary",state="idle"}')}`,
        )
      ).result;
      expect(Number(idle[0].value[1])).toBeGreaterThan(0);
    });
  },
);

const noPromtool = existsSync(PROMTOOL)
  ? ''
  : `${PROMTOOL} is not installed (scripts/install-prometheus.sh installs it)`;
if (noPromtool) console.log(`[server] alert rule tests skipped: ${noPromtool}`);

describe.skipIf(noPromtool !== '')('the shipped alert rules under promtool test rules', () => {
  it('test every alert against series that fire it and series that must not', () => {
    const shipped = [...readFileSync(alerts, 'utf8').matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1]);
    const cases = [
      ...readFileSync(alertTests, 'utf8').matchAll(/^\s+alertname: (\w+)\n\s+exp_alerts:( \[\])?$/gm),
    ].map((m) => ({ alert: m[1], fires: m[2] === undefined }));
    expect(shipped.length).toBeGreaterThan(10);
    for (const alert of shipped) {
      expect(
        cases.some((c) => c.alert === alert && c.fires),
        `${alert} has a case that fires it`,
      ).toBe(true);
      expect(
        cases.some((c) => c.alert === alert && !c.fires),
        `${alert} has a case that must not fire it`,
      ).toBe(true);
    }
    // No case for an alert that is not shipped (a renamed rule would leave its tests behind).
    expect([...new Set(cases.map((c) => c.alert))].sort()).toEqual([...shipped].sort());
  });

  it('pass promtool test rules', async () => {
    const { code, output } = await promtool(['test', 'rules', alertTests]);
    expect(output).toContain('SUCCESS');
    expect(code).toBe(0);
  });
});
