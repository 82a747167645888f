/**
 * A family's samples held until the family's turn comes in the exposition, as numbers, not text.
 * The format wants each family's samples together under its HELP and TYPE, yet a scrape computes
 * every family of a batch of groups at once: all but the family written first wait. Held as text
 * they cost about 100 bytes a sample; here each label value is an index into one table of distinct
 * strings (a group id, a topic, a state: each kept once however many samples name it) and each value
 * 8 bytes, so a sample with two labels costs 20 bytes. The text is made when the family is
 * written, `chunk` samples at a time.
 */

import {
  checkLabelName,
  escapeLabelValue,
  familyHeader,
  formatValue,
  type MetricFamily,
} from './prometheus.js';

/** Samples of one family per written piece: about a batch of groups' worth of text. */
export const HELD_CHUNK = 1_000;

/** Numbers in fixed blocks: growing copies nothing and wastes at most one block. */
class Blocks<A extends Uint32Array | Float64Array> {
  length = 0;
  private readonly blocks: A[] = [];
  constructor(private readonly make: (n: number) => A) {}
  push(v: number): void {
    const at = this.length % BLOCK;
    if (at === 0) this.blocks.push(this.make(BLOCK));
    (this.blocks[this.blocks.length - 1] as A)[at] = v;
    this.length++;
  }
  get(i: number): number {
    return (this.blocks[Math.floor(i / BLOCK)] as A)[i % BLOCK] as number;
  }
  bytes(): number {
    return this.blocks.reduce((n, b) => n + b.byteLength, 0);
  }
}

/** Numbers per block: 16 KiB of indexes, 32 KiB of values. */
export const BLOCK = 4_096;
const u32 = () => new Blocks((n) => new Uint32Array(n));
const f64 = () => new Blocks((n) => new Float64Array(n));

interface Held {
  family: Omit<MetricFamily, 'samples'>;
  /** Per sample: its shape (which label names, in order), then one string index per label. */
  refs: ReturnType<typeof u32>;
  values: ReturnType<typeof f64>;
}

/** A shape's label names and the text around its values: `{a="`, `",b="`, …, `"}`. */
interface Shape {
  names: string[];
  pieces: string[];
}

export class HeldFamilies {
  private readonly strings: string[] = [];
  /** Each string as a label value, escaped once when first written. */
  private readonly escaped: (string | undefined)[] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly shapes: Shape[] = [];
  private readonly shapeIndex = new Map<string, number>();
  /** The shape of the last sample added: most samples have the one before's. */
  private lastShape = -1;
  private readonly held: Held[];

  constructor(families: readonly Omit<MetricFamily, 'samples'>[]) {
    this.held = families.map((family) => ({ family, refs: u32(), values: f64() }));
  }

  /** Keeps the samples of `family` (the i-th of the constructor's) until `write`. */
  add(i: number, family: MetricFamily): void {
    const held = this.held[i];
    if (!held) throw new Error(`no held family ${i}`);
    for (const { labels, value } of family.samples) {
      held.refs.push(this.shape(labels));
      for (const name in labels) held.refs.push(this.intern(labels[name] as string));
      held.values.push(value);
    }
  }

  /** Every held family, in order: its HELP and TYPE, then its samples, `chunk` at a time. */
  *write(chunk = HELD_CHUNK): Generator<string> {
    for (const held of this.held) {
      // The lines are made straight from the indexes: no label objects, each value escaped once.
      const name = held.family.name;
      let text = familyHeader({ ...held.family, samples: [] });
      let at = 0;
      let pending = 0;
      for (let i = 0; i < held.values.length; i++) {
        const { names, pieces } = this.shapes[held.refs.get(at++)] as Shape;
        let line = name;
        for (let n = 0; n < names.length; n++)
          line += (pieces[n] as string) + this.escapedAt(held.refs.get(at++));
        if (names.length > 0) line += pieces[names.length] as string;
        text += `${line} ${formatValue(held.values.get(i))}\n`;
        if (++pending === chunk) {
          yield text;
          text = '';
          pending = 0;
        }
      }
      if (text) yield text;
      // Written: its memory goes before the next family is made into text.
      held.refs = u32();
      held.values = f64();
    }
  }

  /** Samples held now. */
  samples(): number {
    return this.held.reduce((n, h) => n + h.values.length, 0);
  }

  /** Bytes of the held numbers (the strings are counted apart, by `strings`). */
  bytes(): number {
    return this.held.reduce((n, h) => n + h.refs.bytes() + h.values.bytes(), 0);
  }

  /** Distinct label values held (each string once). */
  distinctStrings(): number {
    return this.strings.length;
  }

  private intern(s: string): number {
    let i = this.stringIndex.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.stringIndex.set(s, i);
    }
    return i;
  }

  private escapedAt(i: number): string {
    let text = this.escaped[i];
    if (text === undefined) {
      text = escapeLabelValue(this.strings[i] as string);
      this.escaped[i] = text;
    }
    return text;
  }

  private shape(labels: MetricFamily['samples'][number]['labels']): number {
    const last = this.shapes[this.lastShape];
    if (last && sameNames(last.names, labels)) return this.lastShape;
    const names = Object.keys(labels);
    const key = names.join('\u0000');
    let i = this.shapeIndex.get(key);
    if (i === undefined) {
      for (const name of names) checkLabelName(name);
      i = this.shapes.length;
      const pieces = names.map((n, j) => `${j === 0 ? '{' : '",'}${n}="`);
      pieces.push('"}');
      this.shapes.push({ names, pieces });
      this.shapeIndex.set(key, i);
    }
    this.lastShape = i;
    return i;
  }
}

/** Whether `labels` has these names, in this order (without making an array of its keys). */
function sameNames(names: readonly string[], labels: object): boolean {
  let n = 0;
  for (const name in labels) if (names[n++] !== name) return false;
  return n === names.length;
}
