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

export function escapeLabelValue(value: string): string {
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

function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
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
  for (const s of f.samples) {
    for (const name of Object.keys(s.labels)) {
      if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`not a label name: ${name}`);
    }
    text += `${f.name}${formatLabels(s.labels)} ${formatValue(s.value)}\n`;
  }
  return text;
}
