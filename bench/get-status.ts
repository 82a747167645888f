/** The benches' plain HTTP client: no fetch, whose own cost would blur a sub-millisecond answer. */

import { type Agent, get } from 'node:http';

/** One GET on a keep-alive socket of `agent`: its status, once the body has been read. */
export function getStatus(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    }).once('error', reject);
  });
}
