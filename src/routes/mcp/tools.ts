/**
 * The MCP tools: each one is a route of this API, named by its operationId. Its input schema is
 * made from that route's own parameters and body in the document (routes/mcp/schemas.ts), and a
 * call is answered by that route (routes/mcp/dispatch.ts): grants, validation, problems and JSON
 * are the HTTP API's, by construction. A new route becomes a tool by one entry here.
 *
 * Names follow the Kafka MCP server proposal (KIP-1318: `list_consumer_groups`,
 * `describe_consumer_group`, `describe_cluster`) where it has one; "consumer group" there means
 * any group here: classic, consumer, share and streams.
 */

import type { Action } from '../../auth/grants.js';

export interface ToolSpec {
  /** The MCP tool name. */
  name: string;
  /** A short human title. */
  title: string;
  /** The route the tool calls. */
  operationId: string;
  /** The grant action the route needs: a tool is listed only to principals holding it. */
  action: Action;
  /** What the tool adds to the route's own description (which follows it). */
  lead: string;
  /** Query parameters the tool sets itself (hidden from its input schema). */
  fixedQuery?: Readonly<Record<string, string>>;
  /** Body fields the tool takes (the route's body schema, cut to these); undefined: every field. */
  bodyFields?: readonly string[];
  /** Body fields the tool requires beyond those the route's schema requires. */
  requiredBody?: readonly string[];
  /** Changes something in Kafka (an execute): annotated as destructive. */
  writes?: boolean;
}

export const MCP_TOOLS: readonly ToolSpec[] = [
  {
    name: 'list_consumer_groups',
    title: 'List groups',
    operationId: 'listGroups',
    action: 'read',
    lead: 'Lists the groups this principal may see (every type: classic, consumer, share, streams), filtered and paged; follow `nextCursor` for the next page.',
  },
  {
    name: 'describe_consumer_group',
    title: 'Describe a group',
    operationId: 'getGroup',
    action: 'read',
    lead: 'Describes one group: type, state, epochs, members and their assignments.',
  },
  {
    name: 'describe_consumer_group_lag',
    title: 'Offsets and lag of a group',
    operationId: 'getGroupOffsets',
    action: 'offsets',
    lead: "A group's committed offsets, end offsets and lag, per partition, per topic and in total.",
  },
  {
    name: 'describe_consumer_group_health',
    title: 'Health of a group',
    operationId: 'getGroupHealth',
    action: 'offsets',
    lead: 'Whether a group keeps up: a verdict per partition and for the group; pass the `snapshot` of one answer as `since` to the next for rates and STALLED/REWOUND.',
  },
  {
    name: 'diagnose_consumer_group',
    title: 'Diagnose a group',
    operationId: 'getGroupDiagnosis',
    action: 'offsets',
    lead: 'What is wrong with a group and why: findings with a code, a severity, the Kafka fields read as evidence and what to do; none for a healthy group. Pass the `snapshot` of one answer as `since` to the next for churn and members that stopped.',
  },
  {
    name: 'list_topic_consumer_groups',
    title: 'Groups reading a topic',
    operationId: 'listTopicGroups',
    action: 'read',
    lead: 'Every group this principal may see that reads a topic (committed offsets on it, subscribed to it, or holding its partitions), with its state, type, members and lag on that topic.',
  },
  {
    name: 'describe_cluster_protocols',
    title: 'Groups still on the classic protocol',
    operationId: 'getClusterProtocols',
    action: 'read',
    lead: "For leaving the classic group protocol: classic groups that can move to the consumer protocol, those that cannot, mixed groups and their classic members, and the cluster's group feature levels.",
  },
  {
    name: 'describe_cluster',
    title: 'Describe the cluster',
    operationId: 'getCluster',
    action: 'read',
    lead: 'The cluster id, its brokers and its controller.',
  },
  {
    name: 'reset_consumer_group_offsets_dry_run',
    title: "Plan a reset of a group's offsets",
    operationId: 'resetGroupOffsets',
    action: 'reset-offsets',
    lead: 'Step 1 of 2, changes nothing: answers the plan (per partition the current offset and the target) and its signed `planToken`. A person or a policy approves the plan; `reset_consumer_group_offsets_execute` applies it.',
    bodyFields: [
      'type',
      'scenario',
      'offset',
      'shiftBy',
      'datetime',
      'duration',
      'offsets',
      'allTopics',
      'topics',
    ],
    requiredBody: ['scenario'],
    // Set, and so not an argument: a dry run that took `execute` would be an execute by another name.
    fixedQuery: { execute: 'false' },
  },
  {
    name: 'reset_consumer_group_offsets_execute',
    title: 'Apply a planned reset',
    operationId: 'resetGroupOffsets',
    action: 'reset-offsets',
    lead: 'Step 2 of 2: applies exactly the plan of a `reset_consumer_group_offsets_dry_run` answer, given its `planToken` (10 minutes), or refuses with `plan-stale` when the group changed since.',
    fixedQuery: { execute: 'true' },
    bodyFields: ['type', 'planToken'],
    requiredBody: ['planToken'],
    writes: true,
  },
];
