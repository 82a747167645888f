/**
 * Everything that knows kafkajs is in this folder: the Link over its connection, its logger, its
 * private typings and the bundle plugin (bundle.ts, imported by the build script on its own so
 * that esbuild stays out of the runtime). Nothing else in the project imports kafkajs.
 */

export { kafkajsTransport } from './link.js';
