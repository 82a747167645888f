/**
 * The Prometheus text exposition format, version 0.0.4, written by hand: the usual client library
 * needs Node-only modules, and this is all a scrape needs. One HELP and one TYPE line per family,
 * then its samples; label values escape backslash, double quote and newline, HELP text backslash
 * and newline (the format's only escapes).
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels: Labels;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'gauge' | 'counter' | 'untyped';
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const NEEDS_ESCAPE = /[\\"\n]/;

export function escapeLabelValue(value: string): string {
  // Most values (group ids, topics, states) have nothing to escape: one test instead of three copies.
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** Go's float formatting as Prometheus reads it: NaN, +Inf, -Inf, or the number. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/** Label names already checked: a scrape writes the same few names hundreds of thousands of times. */
const checkedNames = new Set<string>();

/** Throws on a name the format does not allow (or reserves); each name is checked once. */
export function checkLabelName(name: string): void {
  if (checkedNames.has(name)) return;
  if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`not a label name: ${name}`);
  if (checkedNames.size < 1_000) checkedNames.add(name);
}

function formatLabels(labels: Labels): string {
  let text = '';
  for (const name in labels) {
    checkLabelName(name);
    text += `${text ? ',' : '{'}${name}="${escapeLabelValue(labels[name] as string)}"`;
  }
  return text ? `${text}}` : '';
}

/** The exposition of `families`, in the order given; a family without samples keeps its HELP and TYPE. */
export function exposition(families: readonly MetricFamily[]): string {
  return families.map((f) => familyHeader(f) + sampleLines(f)).join('');
}

/** A family's HELP and TYPE lines: written once, before all of its samples. */
export function familyHeader(f: MetricFamily): string {
  if (!METRIC_NAME.test(f.name)) throw new Error(`not a Prometheus metric name: ${f.name}`);
  return `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
}

/** A family's sample lines, each ending in a newline: a family may be written in several pieces. */
export function sampleLines(f: MetricFamily): string {
  let text = '';
  for (const s of f.samples) text += `${f.name}${formatLabels(s.labels)} ${formatValue(s.value)}\n`;
  return text;
}
