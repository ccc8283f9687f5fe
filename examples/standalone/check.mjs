#!/usr/bin/env node
// Checks the deployment files without running them (no container engine or systemd needed):
// compose.yaml and the two systemd units have the pieces the deployment relies on, and every environment
// variable they or .env.example set is a documented setting in docs/configuration.md, and the two units'
// metrics listeners get a port each.
//
//   node examples/standalone/check.mjs      # prints what it checked; exits 1 with the problems otherwise
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Drops a trailing `# comment` that is outside quotes. */
function stripComment(line) {
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  return line;
}

/** A scalar or a flow sequence (`["a", "b"]`) as written in compose files. */
function scalar(text) {
  const t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) {
    const inner = t.slice(1, -1).trim();
    return inner
      ? [...inner.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|([^,\s][^,]*)/g)].map(
          (m) => m[1] ?? m[2] ?? m[3].trim(),
        )
      : [];
  }
  if (/^".*"$/.test(t)) return JSON.parse(t);
  if (/^'.*'$/.test(t)) return t.slice(1, -1).replaceAll("''", "'");
  return t;
}

/**
 * The YAML subset compose files here use: block mappings, block sequences of scalars or mappings, flow
 * sequences, quoted scalars and comments. Anchors, multi-line strings and the rest are refused, not guessed.
 */
export function parseYaml(text) {
  const lines = [];
  for (const [n, raw] of text.split('\n').entries()) {
    const line = stripComment(raw).trimEnd();
    if (!line.trim()) continue;
    if (/[&*]\w|^\s*[|>]|:\s*[|>]\s*$/.test(line))
      throw new Error(`line ${n + 1}: unsupported YAML: ${raw.trim()}`);
    lines.push({ n: n + 1, indent: line.length - line.trimStart().length, text: line.trim() });
  }
  let i = 0;
  function block(indent) {
    const isSeq = lines[i].text.startsWith('- ') || lines[i].text === '-';
    const out = isSeq ? [] : {};
    while (i < lines.length && lines[i].indent === indent) {
      const { text, n } = lines[i];
      if (isSeq) {
        if (!text.startsWith('-')) throw new Error(`line ${n}: expected a sequence item`);
        const item = text.slice(1).trim();
        i++;
        if (!/^["'[]/.test(item) && (item.includes(': ') || item.endsWith(':')))
          throw new Error(`line ${n}: mapping items in sequences are not supported`);
        out.push(scalar(item));
        continue;
      }
      const m = /^("[^"]+"|'[^']+'|[^:]+):(?:\s+(.*))?$/.exec(text);
      if (!m) throw new Error(`line ${n}: expected "key: value"`);
      const key = scalar(m[1]);
      if (key in out) throw new Error(`line ${n}: duplicate key ${key}`);
      i++;
      if (m[2] !== undefined && m[2] !== '') out[key] = scalar(m[2]);
      else if (i < lines.length && lines[i].indent > indent) out[key] = block(lines[i].indent);
      else out[key] = null;
    }
    if (i < lines.length && lines[i].indent > indent)
      throw new Error(`line ${lines[i].n}: unexpected indentation`);
    return out;
  }
  return lines.length ? block(lines[0].indent) : {};
}

/** `[section] key=value` lines of a systemd unit, keeping repeated keys. */
export function parseUnit(text) {
  const sections = {};
  let current = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      current = sections[header[1]] ??= {};
      continue;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`not a unit line: ${line}`);
    current[kv[1]] ??= [];
    current[kv[1]].push(kv[2]);
  }
  return sections;
}

/** The variables in the first column of the settings table in docs/configuration.md. */
export function documentedSettings(markdown) {
  const names = new Set();
  for (const line of markdown.split('\n')) {
    const m = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line);
    if (m) names.add(m[1]);
  }
  return names;
}

/** Variable names an env file sets, including commented-out examples (`# NAME=value`). */
export function envFileNames(text) {
  return [...text.matchAll(/^\s*(?:#\s*)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
}

/** Runs every check; returns the problems found and a list of what was checked. */
export function checkDeployment(dir = here) {
  const problems = [];
  const checked = [];
  const read = (name) => readFileSync(join(dir, name), 'utf8');
  const documented = documentedSettings(readFileSync(join(dir, '../../docs/configuration.md'), 'utf8'));
  const requireDocumented = (name, where) => {
    if (!documented.has(name)) problems.push(`${where}: ${name} is not a setting in docs/configuration.md`);
  };

  // .env.example: the settings every explorer process gets.
  const envNames = envFileNames(read('.env.example'));
  for (const name of envNames) requireDocumented(name, '.env.example');
  for (const name of ['DATABASE_URL', 'NODE_RPC_URL', 'REDIS_URL']) {
    if (!envNames.includes(name)) problems.push(`.env.example: ${name} is missing`);
  }
  checked.push(`.env.example: ${envNames.length} variables looked up in docs/configuration.md`);

  // compose.yaml
  let compose;
  try {
    compose = parseYaml(read('compose.yaml'));
  } catch (err) {
    problems.push(`compose.yaml: ${err.message}`);
    return { problems, checked };
  }
  const services = compose.services ?? {};
  const explorer = Object.entries(services).filter(([, s]) => s.image === services.indexer?.image || s.build);
  const commandOf = (s) => (Array.isArray(s.command) ? s.command.join(' ') : String(s.command ?? ''));
  const apis = explorer.filter(([, s]) => commandOf(s) === 'start --no-index');
  const indexers = explorer.filter(([, s]) => commandOf(s) === 'index');
  if (!services.postgres?.image?.startsWith('postgres:')) problems.push('compose.yaml: no postgres service');
  if (!services.redis?.image?.startsWith('redis:')) problems.push('compose.yaml: no redis service');
  if (apis.length < 2) problems.push(`compose.yaml: ${apis.length} API replicas (start --no-index), want 2`);
  if (indexers.length !== 1) problems.push(`compose.yaml: ${indexers.length} indexers, want exactly 1`);
  for (const [name, s] of explorer) {
    if (s.env_file !== '.env') problems.push(`compose.yaml: ${name} does not read .env`);
    for (const key of Object.keys(s.environment ?? {})) requireDocumented(key, `compose.yaml ${name}`);
    if (!s.depends_on?.postgres) problems.push(`compose.yaml: ${name} does not wait for postgres`);
  }
  for (const [name, s] of apis) {
    const test = (s.healthcheck?.test ?? []).join(' ');
    if (!test.includes('/v1/status')) problems.push(`compose.yaml: ${name} has no /v1/status healthcheck`);
    if (s.environment?.HOST !== '0.0.0.0') problems.push(`compose.yaml: ${name} does not listen on 0.0.0.0`);
    if (!s.depends_on?.redis) problems.push(`compose.yaml: ${name} does not wait for redis`);
  }
  for (const name of ['postgres', 'redis']) {
    if (!services[name]?.healthcheck?.test) problems.push(`compose.yaml: ${name} has no healthcheck`);
  }
  // Compose substitutes ${NAME} from the shell or .env; each must be a setting too.
  for (const m of read('compose.yaml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g))
    requireDocumented(m[1], 'compose.yaml');
  checked.push(
    `compose.yaml: services ${Object.keys(services).join(', ')}; ${apis.length} API replicas with /v1/status healthchecks, ${indexers.length} indexer`,
  );

  // systemd units
  const units = { 'explorer-api.service': 'start --no-index', 'explorer-indexer.service': 'index' };
  const metricsPorts = {};
  for (const [file, command] of Object.entries(units)) {
    let unit;
    try {
      unit = parseUnit(read(file));
    } catch (err) {
      problems.push(`${file}: ${err.message}`);
      continue;
    }
    const service = unit.Service ?? {};
    const one = (key) => service[key]?.at(-1);
    for (const section of ['Unit', 'Service', 'Install'])
      if (!unit[section]) problems.push(`${file}: no [${section}]`);
    if (!one('ExecStart')?.endsWith(`explorer-server ${command}`)) {
      problems.push(`${file}: ExecStart should run "explorer-server ${command}"`);
    }
    if (!one('EnvironmentFile')) problems.push(`${file}: no EnvironmentFile`);
    if (one('Restart') !== 'on-failure') problems.push(`${file}: Restart is not on-failure`);
    if (one('NoNewPrivileges') !== 'yes') problems.push(`${file}: NoNewPrivileges is not yes`);
    if (!['strict', 'full'].includes(one('ProtectSystem')))
      problems.push(`${file}: ProtectSystem is not strict`);
    if (!one('User') || one('User') === 'root') problems.push(`${file}: runs as root`);
    if (one('MemoryDenyWriteExecute') === 'yes')
      problems.push(`${file}: MemoryDenyWriteExecute breaks Node's JIT`);
    for (const assignment of service.Environment ?? []) {
      for (const m of assignment.matchAll(/(?:^|\s)"?([A-Z][A-Z0-9_]*)=/g)) requireDocumented(m[1], file);
      const port = /(?:^|\s)"?METRICS_PORT=([^\s"]+)/.exec(assignment);
      if (port) metricsPorts[file] = port[1];
    }
    if (unit.Install?.WantedBy?.[0] !== 'multi-user.target')
      problems.push(`${file}: not wanted by multi-user.target`);
    checked.push(`${file}: runs explorer-server ${command}, EnvironmentFile, Restart=on-failure, hardened`);
  }
  // The API and the indexer may share a host: each needs a metrics port of its own (default 9464).
  const [apiPort, indexerPort] = Object.keys(units).map((file) => metricsPorts[file] ?? '9464');
  if (apiPort === indexerPort && apiPort !== 'off' && apiPort !== '0')
    problems.push(`the units give both processes METRICS_PORT ${apiPort}; on one host the second gets none`);
  else checked.push(`units: metrics on ports ${apiPort} (API) and ${indexerPort} (indexer)`);
  return { problems, checked };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { problems, checked } = checkDeployment();
  for (const line of checked) console.log(`ok  ${line}`);
  for (const line of problems) console.error(`bad ${line}`);
  process.exit(problems.length ? 1 : 0);
}
