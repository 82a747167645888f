import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { nextLink } from './links.js';

async function linkFor(url: string): Promise<string> {
  const app = new Hono();
  app.get('*', (c) => c.text(nextLink(c, 'ZzE6bmV4dA')));
  return (await app.request(url)).text();
}

describe('nextLink', () => {
  it('is the last path segment and the query, cursor replaced, the other parameters kept in order', async () => {
    expect(await linkFor('/groups?limit=2&cursor=old&type=classic&type=share')).toBe(
      '<groups?limit=2&type=classic&type=share&cursor=ZzE6bmV4dA>; rel="next"',
    );
    expect(await linkFor('/clusters/eu-west/groups')).toBe('<groups?cursor=ZzE6bmV4dA>; rel="next"');
  });

  it('percent-encodes all but unreserved characters, so nothing can end the <…> or split the header', async () => {
    const link = await linkFor(`/groups?prefix=${encodeURIComponent('a b>c,d;e"f\'(g)*ü')}&x=%zz&y=1+2`);
    expect(link).toBe(
      '<groups?prefix=a%20b%3Ec%2Cd%3Be%22f%27%28g%29%2A%C3%BC&x=%25zz&y=1%202&cursor=ZzE6bmV4dA>; rel="next"',
    );
    const reference = /^<([^>]*)>/.exec(link)?.[1] as string;
    const resolved = new URL(reference, 'http://api.test/base/groups?old=1');
    expect(resolved.pathname).toBe('/base/groups');
    expect(resolved.searchParams.get('prefix')).toBe('a b>c,d;e"f\'(g)*ü');
  });
});
