/**
 * Names that appear twice in one object of a JSON text. JSON.parse keeps the last of them without
 * a word, so a proxy, a WAF or an audit log reading the first would see another request than the
 * one served; I-JSON (RFC 7493 §2.3) says names MUST be unique, and a body that repeats one is
 * refused instead.
 *
 * A scan of the text already parsed (so it is valid JSON), without recursion: a body nested as
 * deep as the size cap allows costs one pass. An object's set of names is made at its second name
 * only, so a body of one-name objects nested deep holds one string a level, not one set.
 */

/** Where a repeated name is: its path from the body's root, the name last. */
export type DuplicatePath = (string | number)[];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** The paths of the first `max` repeated names of `text` (valid JSON), in the text's order, and how many. */
export function duplicateNames(text: string, max: number): { paths: DuplicatePath[]; total: number } {
  const paths: DuplicatePath[] = [];
  let total = 0;
  // One entry per open object or array: for an object the name being read (or last read), its
  // first name, and the set of its names from the second on; for an array the index being read.
  const keys: (string | number)[] = [];
  const firsts: (string | undefined)[] = [];
  const sets: (Set<string> | undefined)[] = [];
  const isObject: boolean[] = [];
  let expectName = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      const start = i + 1;
      let escaped = false;
      for (i = start; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === BACKSLASH) {
          escaped = true;
          i++;
        } else if (c === QUOTE) break;
      }
      if (!expectName) continue;
      expectName = false;
      // Escapes decoded: "\u0074ype" and "type" are one name.
      const name = escaped ? (JSON.parse(text.slice(start - 1, i + 1)) as string) : text.slice(start, i);
      const top = keys.length - 1;
      keys[top] = name;
      const first = firsts[top];
      if (first === undefined) {
        firsts[top] = name;
        continue;
      }
      let seen = sets[top];
      if (seen === undefined) {
        seen = new Set([first]);
        sets[top] = seen;
      }
      if (seen.has(name)) {
        total++;
        if (paths.length < max) paths.push(keys.slice());
      } else seen.add(name);
    } else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      const object = ch === OPEN_OBJECT;
      keys.push(object ? '' : 0);
      firsts.push(undefined);
      sets.push(undefined);
      isObject.push(object);
      expectName = object;
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
      keys.pop();
      firsts.pop();
      sets.pop();
      isObject.pop();
      expectName = false;
    } else if (ch === COMMA) {
      const top = keys.length - 1;
      if (isObject[top]) expectName = true;
      else keys[top] = (keys[top] as number) + 1;
    }
  }
  return { paths, total };
}
