/**
 * Amazon MSK IAM authentication, carried as SASL OAUTHBEARER: the token is a presigned
 * `kafka-cluster:Connect` URL made by AWS's own signer (aws-msk-iam-sasl-signer-js), with the
 * credentials of the runtime's standard AWS sources (environment, shared files, the container or
 * instance role; on Lambda the function's role through its environment).
 *
 * The signer and the AWS SDK it brings are loaded on first use only, and only by the runtimes that
 * pass this signer in (Node and Lambda): the Worker does not, so they are not in its bundle.
 */

import { BrokerUnavailableError } from '../../errors.js';
import { refreshingToken, type TokenSource } from './token.js';

/** Makes one MSK IAM token for `region`: the token and its expiry (epoch ms). */
export type AwsMskIamSigner = (region: string) => Promise<{ token: string; expiresAt: number }>;

export const awsMskIamSigner: AwsMskIamSigner = async (region) => {
  // A CommonJS package: imported from a bundle's chunk its exports may arrive as `default` only.
  const signer = await import('aws-msk-iam-sasl-signer-js');
  const generateAuthToken =
    signer.generateAuthToken ?? (signer as unknown as { default: typeof signer }).default.generateAuthToken;
  const { token, expiryTime } = await generateAuthToken({ region });
  return { token, expiresAt: expiryTime };
};

export function awsMskIamToken(region: string, signer: AwsMskIamSigner): TokenSource {
  return refreshingToken(async () => {
    try {
      return await signer(region);
    } catch (error) {
      // The SDK's messages name the source it tried (no credentials, an expired session), never a key.
      const why = error instanceof Error ? error.message.slice(0, 300) : String(error);
      throw new BrokerUnavailableError(
        undefined,
        `SASL AWS_MSK_IAM: no token could be signed for region ${region}: ${why}`,
      );
    }
  });
}
