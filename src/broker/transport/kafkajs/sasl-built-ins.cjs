/**
 * kafkajs's built-in AWS and OAUTHBEARER authenticators (broker/saslAuthenticator/awsIam.js and
 * oauthBearer.js) as the bundles see them. Neither runs here: the SASL settings never name
 * kafkajs's `aws` mechanism (Amazon MSK IAM is OAUTHBEARER with its own tokens), and OAUTHBEARER
 * always comes with the Link's own provider (link.ts, oauthBearer), which kafkajs takes before a
 * built-in one. kafkajs.test.ts checks that, and that this refuses should it ever be asked.
 */
module.exports = () => {
  throw new Error('this SASL mechanism is not part of this build');
};
