import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error check.mjs is plain JavaScript, run by node directly; the test only calls it.
import { checkDeployment, parseYaml } from './check.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const FILES = ['.env.example', 'compose.yaml', 'explorer-api.service', 'explorer-indexer.service'];
const systemdAnalyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
const dirs: string[] = [];

/** A copy of the deployment files (and docs/configuration.md at the same relative place) to break. */
function copy(edit: (name: string, text: string) => string): string {
  const root = mkdtempSync(join(tmpdir(), 'standalone-'));
  dirs.push(root);
  const dir = join(root, 'examples/standalone');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, 'docs'));
  copyFileSync(join(here, '../../docs/configuration.md'), join(root, 'docs/configuration.md'));
  for (const name of FILES)
    writeFileSync(join(dir, name), edit(name, readFileSync(join(here, name), 'utf8')));
  return dir;
}

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('standalone deployment files', () => {
  it('pass check.mjs', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(here, 'check.mjs')]);
    expect(stdout).toContain('2 API replicas with /v1/status healthchecks, 1 indexer');
    expect(checkDeployment(here).problems).toEqual([]);
  });

  it('catch an undocumented variable, a missing healthcheck and a unit without hardening', () => {
    const dir = copy((name, text) => {
      if (name === '.env.example') return `${text}\nEXPLORER_TURBO=1\n`;
      if (name === 'compose.yaml')
        return text.replace("- \"fetch('http://127.0.0.1:3000/v1/status')", '- "true');
      if (name === 'explorer-api.service') return text.replace('NoNewPrivileges=yes\n', '');
      return text
        .replace('explorer-server index', 'explorer-server start')
        .replace('METRICS_PORT=9465', 'METRICS_PORT=9464');
    });
    const { problems } = checkDeployment(dir);
    expect(problems).toEqual(
      expect.arrayContaining([
        '.env.example: EXPLORER_TURBO is not a setting in docs/configuration.md',
        'compose.yaml: api-1 has no /v1/status healthcheck',
        'explorer-api.service: NoNewPrivileges is not yes',
        'explorer-indexer.service: ExecStart should run "explorer-server index"',
        'the units give both processes METRICS_PORT 9464; on one host the second gets none',
      ]),
    );
  });

  it('refuses YAML it does not understand instead of guessing', () => {
    expect(() => parseYaml('a: &x 1\nb: *x\n')).toThrow(/unsupported YAML/);
    expect(parseYaml('a:\n  b: "x # y" # comment\n  c: [d, "e"]\n  f:\n    - g\n')).toEqual({
      a: { b: 'x # y', c: ['d', 'e'], f: ['g'] },
    });
  });

  it.skipIf(!systemdAnalyze)(
    'are accepted by systemd-analyze verify (but for the absent binary)',
    async () => {
      for (const unit of ['explorer-api.service', 'explorer-indexer.service']) {
        const dir = mkdtempSync(join(tmpdir(), 'units-'));
        dirs.push(dir);
        copyFileSync(join(here, unit), join(dir, unit));
        const out = await promisify(execFile)(systemdAnalyze!, ['verify', join(dir, unit)]).then(
          (r) => r.stderr,
          (err: { stderr: string }) => err.stderr,
        );
        const complaints = out
          .split('\n')
          .filter((l) => l.trim() && !/explorer-server is not executable/.test(l));
        expect(complaints).toEqual([]);
      }
    },
  );
});
