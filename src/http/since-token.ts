/**
 * The `since` parameter of the answers that compare two readings (health, diagnosis): a snapshot
 * this deployment signed for the route's purpose, on the cluster serving the request, at most a
 * day old, which the route's own reader accepts. Anything else is a 400 naming why; the token is
 * never echoed, only its length.
 */

import { clusterMismatch, type TokenCluster } from '../tokens/cluster-binding.js';
import type { TokenSigner } from '../tokens/signed.js';
import { RouteProblem } from './route-problem.js';

/** How old a snapshot may be when handed back. */
export const SNAPSHOT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How long a `since` token may be: about 2000 partitions' worth, within the URI limit. */
export const SNAPSHOT_MAX_CHARS = 120_000;

export interface SinceRule<T> {
  /** The purpose the route signs its snapshots for: a token of another purpose is refused. */
  purpose: string;
  /** Whose snapshot the route takes, for the problem's `expected` ("an earlier answer for this group"). */
  of: string;
  /**
   * The verified data read back: the snapshot, or why it cannot be used (another group, another
   * isolation, a shape this release cannot read).
   */
  read(data: unknown, issuedAt: number): T | { refused: string };
}

/** A refused `since`: 400 naming why, never echoing the token. */
function refuseSince(token: string, of: string, why: string): never {
  throw new RouteProblem('invalid-input', `since: ${why}`, {
    errors: [
      {
        in: 'query',
        name: 'since',
        expected: `the snapshot of ${of} from this deployment, at most ${SNAPSHOT_MAX_AGE_MS / 3_600_000} h old`,
        received: `a token of ${token.length} characters`,
        message: why,
      },
    ],
  });
}

/**
 * The snapshot a `since` token carries, with when it was signed. The serving cluster is asked for
 * only once the signature holds, so an altered token is refused without a broker.
 */
export async function snapshotSince<T extends object>(
  tokens: TokenSigner,
  since: string,
  cluster: () => Promise<TokenCluster>,
  rule: SinceRule<T>,
): Promise<{ snapshot: T; issuedAt: number }> {
  const verified = await tokens.verify(rule.purpose, since, {
    maxAgeMs: SNAPSHOT_MAX_AGE_MS,
    maxChars: SNAPSHOT_MAX_CHARS,
  });
  if (!verified.ok) refuseSince(since, rule.of, verified.message);
  const elsewhere = clusterMismatch(verified.data, await cluster());
  if (elsewhere) refuseSince(since, rule.of, elsewhere);
  const snapshot = rule.read(verified.data, verified.issuedAt);
  if ('refused' in snapshot) refuseSince(since, rule.of, snapshot.refused);
  return { snapshot, issuedAt: verified.issuedAt };
}
