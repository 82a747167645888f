/**
 * When each problem type of the catalogue (problems.ts) is answered, in a sentence for readers:
 * docs/problems.md is generated from the catalogue and this table (`npm run docs`). Typed by the
 * catalogue's slugs, so a new problem type does not compile until it says when it happens.
 */

import type { ProblemSlug } from './problems.js';

export const PROBLEM_WHEN: Readonly<Record<ProblemSlug, string>> = {
  'invalid-input':
    'a parameter or body field is invalid or unknown; `errors[]` names each one (`in`, `name`, `expected`, `received`)',
  'group-not-found':
    'the group does not exist (`GROUP_ID_NOT_FOUND`, or Dead from brokers before DescribeGroups v6), or the caller may not see it',
  'route-not-found': 'no such route',
  'topic-not-found': 'the topic does not exist (Metadata answers UNKNOWN_TOPIC_OR_PARTITION)',
  'cluster-not-found':
    "an alias unknown under `/clusters/{alias}`, or one the caller's grants do not cover; `clusters` lists the aliases it may use",
  'group-type-mismatch':
    "the group exists but is of another type than `?type=` (or a write's `type`) asked (`expectedType`, `actualType`)",
  'internal-error':
    'an error nothing maps to a problem: the answer shows nothing of the internals, the server log has the details',
  'configuration-error':
    'the service cannot run with its configuration (Cloudflare Workers: a TLS option or SASL mechanism the runtime cannot serve); the detail names the variable',
  'group-type-unavailable':
    'the cluster does not serve the group type asked for (its RPC is missing, or the broker answers `UNSUPPORTED_VERSION`)',
  'share-group-creation-unsupported':
    'a reset with `create=true` on brokers older than Kafka 4.2, which cannot start a share group that does not exist yet (`kafkaVersion`, `requiredKafkaVersion`)',
  'broker-response-unreadable': 'a broker answered bytes that cannot be read',
  'unsupported-broker-api': 'a broker speaks no version of an RPC this product knows',
  'cluster-mismatch':
    'the broker behind a configured address is of another cluster than `KAFKA_CLUSTER_ID` (or the id first seen): `expectedClusterId` and `seenClusterId` name both, and nothing of its answers is returned',
  'kafka-error': 'Kafka answered an error with no better mapping (`kafkaError` has code, name, message)',
  'broker-unavailable': 'no broker could be reached (with `Retry-After`)',
  'coordinator-unavailable':
    "the group's coordinator stayed unavailable through the retries (with `Retry-After`)",
  'broker-timeout':
    'a broker the answer could not do without did not answer within `KAFKA_REQUEST_TIMEOUT_MS`, or within what was left of `REQUEST_TIMEOUT_MS`',
  'malformed-request':
    'the bytes are not HTTP (Node server, before the app), or a Lambda event that is no HTTP request (no path, a body marked base64 that is not)',
  unauthorized: 'no credentials, or refused ones (with `WWW-Authenticate: Bearer ...`)',
  forbidden:
    "a known principal with no grant for the route's action (a write: `action` names the one it needs)",
  'method-not-allowed': 'a known path, another method (with `Allow`)',
  'not-acceptable':
    '`GET /groups` with an `Accept` that takes neither JSON nor NDJSON (`offers` names both), or a route that answers JSON alone with one that takes no JSON',
  'client-timeout':
    'the request was not received in time: its headers (Node server), or its body within `REQUEST_TIMEOUT_MS`',
  'payload-too-large': 'a body larger than `MAX_BODY_BYTES`, declared or counted while read',
  'unsupported-media-type': 'a body that is not `application/json`',
  'rate-limited': "the caller's token bucket is empty (with `Retry-After`)",
  'too-many-streams':
    'an event stream beyond `EVENTS_MAX_STREAMS_PER_PRINCIPAL` open streams of the caller in this process (with `Retry-After`); `limit` names the cap',
  'event-streams-unsupported':
    "an event stream asked of a runtime invocation that buffers its answer (Lambda's `handler`, buffered invoke mode): use `streamHandler` with a function URL in `RESPONSE_STREAM` mode (see [Events](events.md))",
  'headers-too-large': 'request line and headers above 256 KiB (Node server)',
  'host-not-allowed':
    'a request for a host `ALLOWED_HOSTS` does not list (with `AUTH=none` and no list: any but `localhost`, `127.0.0.1` and `[::1]`); `host` names it',
  'origin-not-allowed':
    'a request to `/mcp` whose `Origin` is none of the hosts served nor of `CORS_ORIGINS` (the MCP transport rule against DNS rebinding); `origin` names it',
  'request-timeout':
    "the request did not complete within `REQUEST_TIMEOUT_MS`; in a stream's lines, a group not read before the stream's deadline (`STREAM_TIMEOUT_MS`) passed",
  'auth-unavailable':
    "a JWT cannot be checked because the issuer's key set (`AUTH_JWKS_URL`) cannot be read (with `Retry-After`); API keys keep working",
  'writes-disabled':
    'a write while writes are off (`AUTH=none` without `WRITES=enabled`, or `WRITES=disabled`)',
  'group-not-empty': 'a write Kafka refuses while the group has members; `members[]` names them',
  'group-subscribed-to-topic':
    'offsets of a topic the live group still subscribes to; `partitions[]` lists them',
  'member-removal-unsupported':
    'removing members of a share or streams group (Kafka has no admin removal for them), or of a consumer group on Kafka 3.9',
  'member-not-found': 'no member with that `group.instance.id`',
  'plan-stale': 'a reset plan executed after the group changed (state, epoch, or offsets of `partitions[]`)',
  'group-deletion-failed':
    "Kafka answered GROUP_DELETION_FAILED (134, Kafka 4.4+: a broker plugin could not delete what it keeps for the group); the group is still there, and Kafka's own message is in `kafkaError`",
};
