/** One sample of Prometheus' text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed exposition: the families (`# TYPE` lines) and every sample. */
export interface Exposition {
  /** Family name → type (counter, gauge, histogram…). */
  families: Map<string, string>;
  samples: Sample[];
}

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses Prometheus' text format (what `/metrics` serves): enough to look samples up by name and labels.
 * @example const { samples } = parseExposition(await (await fetch(metricsUrl)).text())
 */
export function parseExposition(text: string): Exposition {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      families.set(name!, type!);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    // The value follows the last space; label values (route templates) may hold braces but no spaces.
    const space = line.lastIndexOf(' ');
    const series = line.slice(0, space);
    const brace = series.indexOf('{');
    const labels: Record<string, string> = {};
    if (brace >= 0) for (const m of series.slice(brace).matchAll(LABEL)) labels[m[1]!] = m[2]!;
    samples.push({
      name: brace >= 0 ? series.slice(0, brace) : series,
      labels,
      value: Number(line.slice(space + 1)),
    });
  }
  return { families, samples };
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  return exposition.samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;
}

const PROMQL_WORDS = new Set([
  ...['sum', 'avg', 'min', 'max', 'count', 'topk', 'bottomk', 'quantile', 'stddev', 'group'],
  ...['rate', 'irate', 'increase', 'delta', 'deriv', 'changes', 'resets', 'histogram_quantile', 'abs'],
  ...['min_over_time', 'max_over_time', 'avg_over_time', 'sum_over_time', 'absent', 'clamp_min', 'clamp_max'],
  ...['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool'],
  ...['offset', 'vector', 'scalar', 'time', 'label_values', 'inf', 'nan'],
]);

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges, grouping
 * clauses and PromQL's own words are taken out (Grafana's `$variables` sit inside the parts taken out).
 * @example metricNames('sum by (route) (rate(explorer_http_requests_total[5m]))') // ['explorer_http_requests_total']
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, ' ');
  const words = bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(words.filter((w) => !PROMQL_WORDS.has(w.toLowerCase())))];
}

/**
 * The names an exposition lets a query read: each family's, and a histogram's `_bucket`, `_sum` and `_count`.
 */
export function queryableNames(exposition: Exposition): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of exposition.families) {
    names.add(name);
    if (type === 'histogram' || type === 'summary')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}
