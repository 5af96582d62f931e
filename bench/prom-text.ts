// A parser for Prometheus' text exposition format (version 0.0.4), strict enough to refuse what a
// Prometheus server would refuse: # HELP and # TYPE lines, samples with escaped label values, the
// samples of a family together and after its TYPE, no series twice, and histograms whose buckets
// are cumulative and end at +Inf with the family's _count.
// https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format

export interface Sample {
  /** the sample's own name: for a histogram, `<family>_bucket`, `_sum` or `_count` */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  type: string;
  help: string;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Readonly<Record<string, readonly string[]>> = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

class ParseError extends Error {
  constructor(line: number, what: string) {
    super(`metrics text, line ${line}: ${what}`);
  }
}

/** A sample value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan"). */
function parseValue(text: string, line: number): number {
  const special = /^([-+]?)(inf|infinity|nan)$/i.exec(text);
  if (special) return special[2]!.toLowerCase() === 'nan' ? Number.NaN : special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new ParseError(line, `not a number: '${text}'`);
  return Number(text);
}

/** `name{a="x",b="y"} value [timestamp]`, with `\\`, `\"` and `\n` in label values. */
function parseSample(text: string, line: number): Sample {
  let i = 0;
  while (i < text.length && text[i] !== '{' && text[i] !== ' ') i++;
  const name = text.slice(0, i);
  if (!METRIC_NAME.test(name)) throw new ParseError(line, `bad metric name '${name}'`);
  const labels: Record<string, string> = {};
  if (text[i] === '{') {
    i++;
    while (text[i] !== '}') {
      const eq = text.indexOf('=', i);
      if (eq < 0) throw new ParseError(line, 'label without a value');
      const label = text.slice(i, eq).trim();
      if (!LABEL_NAME.test(label)) throw new ParseError(line, `bad label name '${label}'`);
      if (label in labels) throw new ParseError(line, `label '${label}' twice`);
      if (text[eq + 1] !== '"') throw new ParseError(line, `label '${label}' value is not quoted`);
      let value = '';
      let j = eq + 2;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] !== '\\') {
          value += text[j];
          continue;
        }
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new ParseError(line, `bad escape '\\${next}' in label '${label}'`);
      }
      if (j >= text.length) throw new ParseError(line, `label '${label}' value is not closed`);
      labels[label] = value;
      i = j + 1;
      if (text[i] === ',') i++;
      else if (text[i] !== '}') throw new ParseError(line, `expected ',' or '}' after label '${label}'`);
    }
    i++;
  }
  const rest = text.slice(i).trim().split(/ +/);
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') throw new ParseError(line, 'expected a value and at most a timestamp');
  if (rest.length === 2 && !/^-?\d+$/.test(rest[1]!)) throw new ParseError(line, `bad timestamp '${rest[1]}'`);
  return { name, labels, value: parseValue(rest[0]!, line) };
}

/** The family a sample named `name` belongs to, given the families declared so far. */
function familyOf(name: string, families: ReadonlyMap<string, Family>): Family | undefined {
  const exact = families.get(name);
  if (exact && !(exact.type === 'histogram')) return exact;
  for (const [suffix, cut] of [['_bucket', 7], ['_sum', 4], ['_count', 6]] as const) {
    if (!name.endsWith(suffix)) continue;
    const f = families.get(name.slice(0, -cut));
    if (f && (SUFFIXES[f.type] ?? []).includes(suffix)) return f;
  }
  return exact;
}

const seriesKey = (s: Sample): string => `${s.name}{${Object.keys(s.labels).sort().map((k) => `${k}=${JSON.stringify(s.labels[k])}`).join(',')}}`;

function checkHistogram(f: Family): void {
  const groups = new Map<string, { le: number; value: number }[]>();
  const totals = new Map<string, number>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${f.name}: a bucket without 'le'`);
      const list = groups.get(key) ?? [];
      list.push({ le: parseValue(le, 0), value: s.value });
      groups.set(key, list);
    } else if (s.name.endsWith('_count')) totals.set(key, s.value);
  }
  for (const [key, buckets] of groups) {
    for (let i = 1; i < buckets.length; i++) {
      if (!(buckets[i]!.le > buckets[i - 1]!.le)) throw new Error(`${f.name}${key}: bucket bounds not increasing`);
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${f.name}${key}: buckets not cumulative`);
    }
    const last = buckets[buckets.length - 1]!;
    if (last.le !== Number.POSITIVE_INFINITY) throw new Error(`${f.name}${key}: no +Inf bucket`);
    if (totals.get(key) !== last.value) throw new Error(`${f.name}${key}: _count ${totals.get(key)} is not the +Inf bucket's ${last.value}`);
  }
}

/** Every family of a scrape, by name; throws on anything a Prometheus server would refuse. */
export function parsePromText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const closed = new Set<Family>();
  let current: Family | undefined;
  const declare = (name: string, line: number): Family => {
    if (!METRIC_NAME.test(name)) throw new ParseError(line, `bad metric name '${name}'`);
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', help: '', samples: [] }));
    if (f.samples.length > 0) throw new ParseError(line, `# HELP or # TYPE of ${name} after its samples`);
    return f;
  };
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(raw);
      if (!m) return; // a comment
      const f = declare(m[2]!, line);
      if (m[1] === 'TYPE') {
        const type = (m[3] ?? '').trim();
        if (!TYPES.has(type)) throw new ParseError(line, `unknown type '${type}'`);
        f.type = type;
      } else {
        f.help = (m[3] ?? '').replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
      }
      return;
    }
    const sample = parseSample(raw, line);
    const f = familyOf(sample.name, families) ?? declare(sample.name, line);
    // A family's samples come together: one that reappears after another family's is refused.
    if (f !== current) {
      if (closed.has(f)) throw new ParseError(line, `samples of ${f.name} are not together`);
      if (current) closed.add(current);
      current = f;
    }
    const key = seriesKey(sample);
    if (seen.has(key)) throw new ParseError(line, `series ${key} twice`);
    seen.add(key);
    f.samples.push(sample);
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined if none, an error if several. */
export function valueOf(families: ReadonlyMap<string, Family>, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
  const matches = [...families.values()]
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matches[0]?.value;
}
