/** The connections' SASL settings, made once per cluster from its configuration. */

import type { SaslCredentials } from '../link.js';
import type { ClusterSettings } from '../settings.js';
import { TransportSettingsError } from '../settings.js';
import { type AwsMskIamSigner, awsMskIamToken } from './aws-msk-iam.js';
import { clientCredentialsToken } from './oidc.js';

/** OAUTHBEARER mechanisms get one token source for the cluster. */
export function saslCredentials(
  sasl: ClusterSettings['sasl'],
  signer: AwsMskIamSigner | undefined,
): SaslCredentials | null {
  if (sasl === undefined) return null;
  if (sasl.mechanism === 'oauthbearer')
    return { mechanism: 'oauthbearer', token: clientCredentialsToken(sasl) };
  if (sasl.mechanism === 'aws-msk-iam') {
    if (!signer) {
      throw new TransportSettingsError(
        'sasl.mechanism',
        "aws-msk-iam needs AWS's signer, which this runtime does not provide (Node and Lambda do)",
      );
    }
    return { mechanism: 'oauthbearer', token: awsMskIamToken(sasl.region, signer) };
  }
  return sasl;
}
