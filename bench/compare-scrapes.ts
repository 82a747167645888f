/**
 * Whether two /metrics answers say the same (two builds scraping one broker, see scrape-once.ts):
 * the same families in the same order with the same HELP and TYPE, the same series (name and
 * labels, order ignored), every group exactly once in kafka_group_lag_records and
 * kafka_group_members, and the same values, except the time lag series, whose values follow the
 * clock: those must differ by no more than the time between the two scrapes (`slackSeconds`).
 *
 *   npx tsx bench/compare-scrapes.ts before.txt after.txt [slackSeconds=900]
 *
 * Exits 1 and names the first differences when they do not agree.
 */

import { readFileSync } from 'node:fs';

const [a, b, slackArg] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: compare-scrapes.ts before.txt after.txt [slackSeconds]');
const slack = Number(slackArg ?? 900);
const CLOCK = /^kafka_group_time_lag_(min|max)_seconds$/;

interface Scrape {
  headers: string[];
  series: Map<string, number>;
  /** Group label of each series of a family, counted. */
  groups: Map<string, Map<string, number>>;
  comments: number;
}

function read(file: string): Scrape {
  const headers: string[] = [];
  const series = new Map<string, number>();
  const groups = new Map<string, Map<string, number>>();
  let comments = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP') || line.startsWith('# TYPE')) {
      headers.push(line);
      continue;
    }
    if (line.startsWith('#')) {
      comments++;
      continue;
    }
    const space = line.lastIndexOf(' ');
    const key = line.slice(0, space);
    const value = Number(line.slice(space + 1));
    const brace = key.indexOf('{');
    const name = brace === -1 ? key : key.slice(0, brace);
    // Labels sorted, so the key does not depend on the order they were written in.
    const labels = brace === -1 ? [] : (key.slice(brace + 1, -1).match(/\w+="(?:[^"\\]|\\.)*"/g) ?? []);
    const canonical = `${name}{${[...labels].sort().join(',')}}`;
    if (series.has(canonical)) throw new Error(`${file}: series twice: ${canonical}`);
    series.set(canonical, value);
    const group = labels.find((l) => l.startsWith('group='));
    if (group) {
      const counts = groups.get(name) ?? new Map<string, number>();
      counts.set(group, (counts.get(group) ?? 0) + 1);
      groups.set(name, counts);
    }
  }
  return { headers, series, groups, comments };
}

const before = read(a);
const after = read(b);
const problems: string[] = [];
if (before.headers.join('\n') !== after.headers.join('\n')) problems.push('HELP/TYPE lines differ');
for (const [key, value] of before.series) {
  const other = after.series.get(key);
  const name = key.slice(0, key.indexOf('{'));
  if (other === undefined) problems.push(`only in ${a}: ${key}`);
  else if (CLOCK.test(name) ? Math.abs(other - value) > slack : other !== value)
    problems.push(`${key}: ${value} vs ${other}`);
}
for (const key of after.series.keys()) if (!before.series.has(key)) problems.push(`only in ${b}: ${key}`);
const once = (s: Scrape, family: string) => {
  const counts = s.groups.get(family) ?? new Map();
  return { groups: counts.size, more: [...counts.values()].filter((n) => n !== 1).length };
};
const summary = {
  series: [before.series.size, after.series.size],
  comments: [before.comments, after.comments],
  families: before.headers.length / 2,
  lagGroups: [once(before, 'kafka_group_lag_records'), once(after, 'kafka_group_lag_records')],
  memberGroups: [once(before, 'kafka_group_members'), once(after, 'kafka_group_members')],
  clockSeries: [...before.series.keys()].filter((k) => CLOCK.test(k.slice(0, k.indexOf('{')))).length,
};
for (const s of [...summary.lagGroups, ...summary.memberGroups])
  if (s.more > 0) problems.push(`${s.more} groups not exactly once`);
console.log(JSON.stringify(summary));
if (problems.length > 0) {
  console.log(`${problems.length} differences; the first:\n${problems.slice(0, 20).join('\n')}`);
  process.exit(1);
}
console.log('same families, series and values (time lag within the slack)');
