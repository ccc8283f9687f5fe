import { type ConfigFlags, defaultText, flagName, SETTINGS, type Setting } from './index.js';
import { settingPrefixes } from './unknown.js';

/** Markdown of the declarations as plain text: `code` unquoted, [links](x.md) reduced to their words. */
export const plain = (markdown: string): string =>
  markdown.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/`([^`]*)`/g, '$1');

const byKey = (key: string): Setting => {
  const s = SETTINGS.find((x) => x.key === key);
  if (!s) throw new Error(`config: no setting ${key}`);
  return s;
};

/** The environment table shown under --help. */
export function environmentHelp(): string {
  const all = SETTINGS.filter((s) => s.env);
  const width = Math.max(...all.map((s) => s.env!.length));
  const lines = all.map((s) => {
    const notes = [plain(s.values), `default ${plain(s.shown)}`, s.flag ? `flag ${flagName(s)}` : ''];
    return `  ${s.env!.padEnd(width)}  ${plain(s.description)} (${notes.filter(Boolean).join('; ')})`;
  });
  return `\nEnvironment (flags win over variables):\n${lines.join('\n')}\n`;
}

/**
 * The commander option of a setting that has a flag: its flags and its description, naming the variable.
 * @example command.option(...settingOption('port'))
 */
export function settingOption(key: keyof ConfigFlags): [flags: string, description: string] {
  const s = byKey(key);
  if (!s.flag) throw new Error(`config: ${key} has no flag`);
  // A switch (`--trust-proxy`) takes no value to describe.
  const values = s.flag.includes('<') ? plain(s.values) : '';
  const notes = [values, s.env ? `env ${s.env}` : '', `default ${plain(s.shown)}`];
  return [s.flag, `${plain(s.description)} (${notes.filter(Boolean).join('; ')})`];
}

const cell = (markdown: string) => markdown.replaceAll('|', '\\|');

/**
 * The settings table of the documentation (Markdown), every setting or those `only` keeps.
 * @example settingsTable((s) => s.env?.startsWith('MARKET_') ?? false)
 */
export function settingsTable(only: (s: Setting) => boolean = () => true): string {
  const rows = SETTINGS.filter(only).map((s) => {
    const meaning = s.details ? `${s.description}. ${s.details}` : s.description;
    const cells = [
      s.env ? `\`${s.env}\`` : '',
      s.flag ? `\`${flagName(s)}\`` : '',
      s.shown,
      s.env ? s.values : '',
    ];
    return `| ${[...cells, meaning].map(cell).join(' | ')} |`;
  });
  return ['| variable | flag | default | accepts | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The prefixes whose unknown variables are reported, as the documentation lists them. */
export function reportedPrefixesText(): string {
  return `${settingPrefixes()
    .map((p) => `\`${p}\``)
    .join(', ')}.`;
}

/** Words of `text` in lines of at most `width` characters, each starting with `lead`. */
function wrap(text: string, lead: string, width = 100): string[] {
  const lines: string[] = [];
  let line = lead;
  // "≥ 10" stays on one line.
  for (const word of text.split(/(?<!≥) /)) {
    if (line !== lead && line.length + 1 + word.length > width) {
      lines.push(line);
      line = lead;
    }
    line += line === lead ? word : ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** `.env.example`: every variable, commented out, with its default and what it does. */
export function envExample(): string {
  const head = [
    '# Every setting of explorer-server, commented out, with its default. Copy this file to .env, set what you',
    '# need, and start with `node --env-file=.env packages/server/dist/bin.js start` (or give the variables to',
    '# your container or service manager). docs/configuration.md describes each one.',
    '# Written from the settings declaration (packages/server/src/config/index.ts) by `pnpm run config-docs`.',
  ];
  const entries = SETTINGS.filter((s) => s.env).map((s) => {
    // Where no value can be written (none, a value worked out later), `shown` says what happens.
    const value = defaultText(s.default);
    const notes = [
      plain(s.values),
      value === null ? `unset: ${plain(s.shown)}` : '',
      s.flag ? `flag ${flagName(s)}` : '',
    ].filter(Boolean);
    const description = plain(s.description);
    const about = `${description[0]!.toUpperCase()}${description.slice(1)}${notes.length ? ` (${notes.join('; ')})` : ''}`;
    return [...wrap(about, '# '), `# ${s.env}=${value ?? ''}`].join('\n');
  });
  return `${head.join('\n')}\n\n${entries.join('\n\n')}\n`;
}
