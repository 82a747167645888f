import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { escapeHelp, escapeLabelValue, exposition, formatValue } from './prometheus.js';

describe('Prometheus text exposition', () => {
  it('escapes backslash, double quote and newline in label values, backslash and newline in HELP', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect(escapeHelp('x\\y\nz "q"')).toBe('x\\\\y\\nz "q"');
  });

  it('writes HELP and TYPE once per family, samples after, a newline at the end', () => {
    const text = exposition([
      {
        name: 'kafka_group_lag_records',
        help: 'Lag.',
        type: 'gauge',
        samples: [
          { labels: { group: 'g1', type: 'classic' }, value: 3 },
          { labels: { group: 'g2', type: 'consumer' }, value: 0 },
        ],
      },
      {
        name: 'kafka_group_series_dropped',
        help: 'Dropped.',
        type: 'gauge',
        samples: [{ labels: {}, value: 0 }],
      },
    ]);
    expect(text).toBe(
      '# HELP kafka_group_lag_records Lag.\n# TYPE kafka_group_lag_records gauge\n' +
        'kafka_group_lag_records{group="g1",type="classic"} 3\n' +
        'kafka_group_lag_records{group="g2",type="consumer"} 0\n' +
        '# HELP kafka_group_series_dropped Dropped.\n# TYPE kafka_group_series_dropped gauge\n' +
        'kafka_group_series_dropped 0\n',
    );
  });

  it('round-trips awkward group ids through a Prometheus parser', () => {
    const ids = ['with "quotes"', 'back\\slash', 'new\nline', 'ünïcödé / spaces', '{braces},commas='];
    const text = exposition([
      {
        name: 'kafka_group_members',
        help: 'Members\nof the group \\ count.',
        type: 'gauge',
        samples: ids.map((group, i) => ({ labels: { group }, value: i + 0.5 })),
      },
    ]);
    const [family] = parsePrometheusTextFormat(text);
    expect(family?.help).toBe('Members\nof the group \\ count.');
    expect(family?.metrics.map((m) => m.labels?.group)).toEqual(ids);
    expect(family?.metrics.map((m) => Number(m.value))).toEqual([0.5, 1.5, 2.5, 3.5, 4.5]);
  });

  it('formats special values as Prometheus reads them', () => {
    expect([NaN, Infinity, -Infinity, 1.25, 1e21].map(formatValue)).toEqual([
      'NaN',
      '+Inf',
      '-Inf',
      '1.25',
      '1e+21',
    ]);
  });

  it('refuses names Prometheus would not take', () => {
    expect(() => exposition([{ name: 'kafka-lag', help: '', type: 'gauge', samples: [] }])).toThrow(
      /metric name/,
    );
    expect(() =>
      exposition([
        { name: 'ok', help: '', type: 'gauge', samples: [{ labels: { 'bad-label': 'x' }, value: 1 }] },
      ]),
    ).toThrow(/label name/);
    expect(() =>
      exposition([{ name: 'ok', help: '', type: 'gauge', samples: [{ labels: { __name: 'x' }, value: 1 }] }]),
    ).toThrow(/label name/);
  });
});
