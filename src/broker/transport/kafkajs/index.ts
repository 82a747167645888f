/**
 * Everything that knows kafkajs is in this folder: the Link over its connection, its logger and its
 * private typings. Nothing else in the project imports kafkajs.
 */

export { kafkajsTransport } from './link.js';
