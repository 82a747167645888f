/**
 * The documentation points at what exists: every relative link of README.md, CONTRIBUTING.md and
 * docs/*.md resolves to a file, and its #anchor to a heading of that file (GitHub's slugs), and every
 * repository path quoted in backticks (`src/...`, `test/...`) names a file or folder that is there.
 * A rename or a moved section fails here rather than in a reader's browser.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].filter((p) => existsSync(join(ROOT, p)));

/** The page's lines outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The anchors GitHub gives the headings of a markdown file. */
function anchors(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  for (const line of prose(readFileSync(path, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    // The slug is made from the heading's text as rendered: links keep their text, code its content.
    if (heading?.[1])
      out.add(slugger.slug(heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')));
  }
  return out;
}

function links(text: string): string[] {
  const out: string[] = [];
  for (const line of prose(text)) {
    // Inline code is not a link, even when it looks like one.
    const plain = line.replace(/`[^`]*`/g, '');
    for (const m of plain.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) if (m[1]) out.push(m[1]);
  }
  return out;
}

const QUOTED_PATH = /`((?:src|test|scripts|bench|docs|sdk|\.ci)\/[^`\s*{}<>…]*)`/g;

describe.each(PAGES)('%s', (page) => {
  const file = join(ROOT, page);
  const text = readFileSync(file, 'utf8');

  it('has relative links that resolve to files and headings', () => {
    const broken: string[] = [];
    for (const link of links(text)) {
      if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // http:, https:, mailto:
      const [target = '', anchor] = link.split('#', 2);
      const path = target === '' ? file : resolve(dirname(file), decodeURIComponent(target));
      if (!existsSync(path)) {
        broken.push(`${link}: no ${relative(ROOT, path)}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(path).isDirectory() || !path.endsWith('.md')) {
        broken.push(`${link}: an anchor into something that is not a markdown file`);
      } else if (!anchors(path).has(anchor)) {
        broken.push(`${link}: no heading '#${anchor}' in ${relative(ROOT, path)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('quotes repository paths that exist', () => {
    const missing = [...text.matchAll(QUOTED_PATH)]
      .map((m) => m[1] as string)
      .filter((path) => !existsSync(join(ROOT, path.replace(/[.,:;]$/, ''))));
    expect([...new Set(missing)]).toEqual([]);
  });
});
