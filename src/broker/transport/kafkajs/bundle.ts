/**
 * What the bundles put in place of kafkajs's own modules: scripts/stand-ins.ts applies these with
 * the project's other stand-ins, to the Node and Lambda bundles (esbuild) and, through
 * wrangler.toml's `[alias]`, to the Worker. Each replaces one import, made by one kafkajs file.
 *
 * - kafkajs's request registry, read only by its SASL authenticator: sasl-requests.ts, the two
 *   requests SASL sends, in place of every request kafkajs implements (~100 KB minified).
 * - its table of Kafka's error codes, read only by the SASL answers: sasl-errors.ts, from the
 *   project's own table (~12 KB minified).
 * - its package.json, read by its errors for one field: that field (package-fields.json).
 * - its built-in AWS and OAUTHBEARER authenticators, which never run here: one that refuses
 *   (sasl-built-ins.cjs).
 *
 * It lives here because it knows kafkajs's file layout; kafkajs.test.ts checks that layout.
 */

export const KAFKAJS_STAND_INS = [
  {
    specifier: '../../protocol/requests',
    importer: /[\\/]kafkajs[\\/]src[\\/]broker[\\/]saslAuthenticator[\\/]index\.js$/,
    file: 'src/broker/transport/kafkajs/sasl-requests.ts',
  },
  {
    specifier: '../../../error',
    importer:
      /[\\/]kafkajs[\\/]src[\\/]protocol[\\/]requests[\\/]sasl(Handshake|Authenticate)[\\/]v\d[\\/]response\.js$/,
    file: 'src/broker/transport/kafkajs/sasl-errors.ts',
  },
  {
    specifier: '../package.json',
    importer: /[\\/]kafkajs[\\/]src[\\/]errors\.js$/,
    file: 'src/broker/transport/kafkajs/package-fields.json',
  },
  ...['./awsIam', './oauthBearer'].map((specifier) => ({
    specifier,
    importer: /[\\/]kafkajs[\\/]src[\\/]broker[\\/]saslAuthenticator[\\/]index\.js$/,
    file: 'src/broker/transport/kafkajs/sasl-built-ins.cjs',
  })),
] as const;
