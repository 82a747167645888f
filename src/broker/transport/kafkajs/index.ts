/**
 * Everything that knows kafkajs is in this folder: the Link over its connection, its logger, its
 * private typings and what the bundles put in place of parts of it (bundle.ts, read by the build
 * script on its own, and the stand-ins it names). Nothing else in the project imports kafkajs.
 */

export { kafkajsTransport } from './link.js';
