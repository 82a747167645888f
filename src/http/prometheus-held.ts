/**
 * A family's samples held until the family's turn comes in the exposition, as numbers, not text.
 * The format wants each family's samples together under its HELP and TYPE, yet a scrape computes
 * every family of a batch of groups at once: all but the family written first wait. Held as text
 * they cost about 100 bytes a sample; here each label value is an index into one table of distinct
 * strings (a group id, a topic, a state: each kept once however many samples name it) and each value
 * 8 bytes, so a sample with two labels costs 20 bytes. The text is made when the family is
 * written, `chunk` samples at a time.
 */

import { familyHeader, type Labels, type MetricFamily, sampleLines } from './prometheus.js';

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

export class HeldFamilies {
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly shapes: string[][] = [];
  private readonly shapeIndex = new Map<string, number>();
  private readonly held: Held[];

  constructor(families: readonly Omit<MetricFamily, 'samples'>[]) {
    this.held = families.map((family) => ({ family, refs: u32(), values: f64() }));
  }

  /** Keeps the samples of `family` (the i-th of the constructor's) until `write`. */
  add(i: number, family: MetricFamily): void {
    const held = this.held[i];
    if (!held) throw new Error(`no held family ${i}`);
    for (const { labels, value } of family.samples) {
      const names = Object.keys(labels);
      held.refs.push(this.shape(names));
      for (const name of names) held.refs.push(this.intern(labels[name] as string));
      held.values.push(value);
    }
  }

  /** Every held family, in order: its HELP and TYPE, then its samples, `chunk` at a time. */
  *write(chunk = HELD_CHUNK): Generator<string> {
    for (const held of this.held) {
      let text = familyHeader({ ...held.family, samples: [] });
      let at = 0;
      let pending: { labels: Labels; value: number }[] = [];
      for (let i = 0; i < held.values.length; i++) {
        const names = this.shapes[held.refs.get(at++)] as string[];
        const labels: Record<string, string> = {};
        for (const name of names) labels[name] = this.strings[held.refs.get(at++)] as string;
        pending.push({ labels, value: held.values.get(i) });
        if (pending.length === chunk) {
          yield text + sampleLines({ ...held.family, samples: pending });
          text = '';
          pending = [];
        }
      }
      if (text || pending.length > 0) yield text + sampleLines({ ...held.family, samples: pending });
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

  private shape(names: string[]): number {
    const key = names.join('\u0000');
    let i = this.shapeIndex.get(key);
    if (i === undefined) {
      i = this.shapes.length;
      this.shapes.push(names);
      this.shapeIndex.set(key, i);
    }
    return i;
  }
}
