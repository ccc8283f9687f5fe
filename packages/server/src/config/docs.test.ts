// The documentation and .env.example against the settings declaration. `pnpm run config-docs` runs this file
// with --update, which writes what it expects.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  envExample,
  environmentHelp,
  plain,
  reportedPrefixesText,
  settingOption,
  settingsTable,
} from './docs.js';
import { loadConfig, SETTINGS } from './index.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HINT =
  'differs from the settings declaration (packages/server/src/config/index.ts): run `pnpm run config-docs`';

/** The file with each `<!-- generated: name -->` … `<!-- end generated: name -->` block's content replaced. */
function withGenerated(file: string, blocks: Record<string, string>): string {
  let text = readFileSync(`${root}${file}`, 'utf8');
  for (const [name, content] of Object.entries(blocks)) {
    const begin = `<!-- generated: ${name} -->\n`;
    const end = `<!-- end generated: ${name} -->`;
    const from = text.indexOf(begin);
    const to = text.indexOf(end, from);
    if (from < 0 || to < 0) throw new Error(`${file} has no "${begin.trim()}" … "${end}" block`);
    text = `${text.slice(0, from + begin.length)}${content}\n${text.slice(to)}`;
  }
  return text;
}

describe('the configuration documentation', () => {
  it('docs/configuration.md has the table and prefixes the declaration gives', async () => {
    const doc = withGenerated('docs/configuration.md', {
      settings: settingsTable(),
      prefixes: reportedPrefixesText(),
    });
    await expect(doc).toMatchFileSnapshot(`${root}docs/configuration.md`, `docs/configuration.md ${HINT}`);
  });

  it('docs/market.md has the MARKET_* rows of the same table', async () => {
    const doc = withGenerated('docs/market.md', {
      'market settings': settingsTable((s) => s.key.startsWith('market.')),
    });
    await expect(doc).toMatchFileSnapshot(`${root}docs/market.md`, `docs/market.md ${HINT}`);
  });

  it('.env.example has every variable, commented out, with its default', async () => {
    const text = envExample();
    await expect(text).toMatchFileSnapshot(`${root}.env.example`, `.env.example ${HINT}`);
    const lines = text.split('\n');
    expect(lines.filter((l) => l && !l.startsWith('#'))).toEqual([]);
    // Uncommented as it stands, the file changes nothing: every value it shows is the default.
    const env = Object.fromEntries(
      lines.flatMap((l) => {
        const m = /^# ([A-Z][A-Z0-9_]*)=(.*)$/.exec(l);
        return m ? [[m[1]!, m[2]!]] : [];
      }),
    );
    expect(Object.keys(env)).toEqual(SETTINGS.flatMap((s) => (s.env ? [s.env] : [])));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });

  it('--help lists every variable with its default, and flags name their variable', () => {
    const help = environmentHelp();
    for (const s of SETTINGS.filter((x) => x.env))
      expect(help).toMatch(new RegExp(`^  ${s.env} +.*default ${escapeRegExp(plain(s.shown))}`, 'm'));
    expect(help).not.toContain('`');
    expect(settingOption('port')).toEqual([
      '--port <n>',
      'HTTP port; 0 picks a free one (integer 0–65535; env PORT; default 3000)',
    ]);
    expect(settingOption('index')[0]).toBe('--no-index');
  });
});
