/*
 * Drives the client OpenAPI Generator's typescript-fetch made from the live /openapi.json against
 * the running API, and prints what it read, one fact a line, for test/integration/ts-clients.test.ts.
 * Compiled with `tsc --strict` beside the generated sources (test/clients/ts-client.ts): groups and
 * batch outcomes are narrowed on their discriminators (`type`, `status`) with no cast, so a document
 * whose unions lose their discriminator or their variants stops this file from compiling.
 *
 *   node check.js --base URL --prefix P --group TYPE ID [...] --missing ID --mismatch ID TYPE --health ID
 *
 * Output lines (ids hold no spaces):
 *   PAGE <groupId> ... then PAGES <n>              GET /groups?prefix=P&limit=2, following nextCursor
 *   DESCRIBE <type> <groupId> <members> <fact>     GET /groups/{id}, a fact only that type has
 *   BATCH found <groupId> <type> | BATCH failed <groupId> <problem type> <status>
 *   NOTFOUND <status> <problem type> <groupId>
 *   MISMATCH <status> <problem type> <expectedType> <actualType>
 *   HEALTH <groupId> <type> <verdict> <partitions>
 *   DONE
 */

import {
  type BatchDescribeOutcome,
  Configuration,
  type Group,
  GroupsApi,
  OffsetsApi,
  type Problem,
  ProblemFromJSON,
  ResponseError,
} from './generated';

type GroupType = 'classic' | 'consumer' | 'share' | 'streams';

function groupType(value: string): GroupType {
  switch (value) {
    case 'classic':
    case 'consumer':
    case 'share':
    case 'streams':
      return value;
    default:
      throw new Error(`not a group type: ${value}`);
  }
}

function describe(group: Group): string {
  switch (group.type) {
    case 'classic':
      return `${group.members.length} assignor=${group.assignor}`;
    case 'consumer':
      return `${group.members.length} memberEpoch=${group.members.map((m) => m.memberEpoch).join(',')}`;
    case 'share':
      return `${group.members.length} subscribed=${group.members.map((m) => m.subscribedTopicNames.join(',')).join(';')}`;
    case 'streams':
      return `${group.members.length} activeTasks=${group.members.map((m) => m.tasks.activeTasks.length).join(',')}`;
    default: {
      const unknown: never = group;
      throw new Error(`a group of no known type: ${JSON.stringify(unknown)}`);
    }
  }
}

function outcome(result: BatchDescribeOutcome): string {
  switch (result.status) {
    case 'found':
      return `BATCH found ${result.groupId} ${result.group.type}`;
    case 'failed':
      return `BATCH failed ${result.groupId} ${result.problem.type} ${result.problem.status}`;
    default: {
      const unknown: never = result;
      throw new Error(`an outcome of no known variant: ${JSON.stringify(unknown)}`);
    }
  }
}

/** The problem a call answered with, as the generated Problem type. */
async function problemOf(call: () => Promise<unknown>): Promise<{ status: number; problem: Problem }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ResponseError) {
      return { status: error.response.status, problem: ProblemFromJSON(await error.response.json()) };
    }
    throw error;
  }
  throw new Error('the call succeeded');
}

async function main(argv: string[]): Promise<void> {
  let base = '';
  let prefix = '';
  let missing = '';
  let health = '';
  let mismatch: [string, GroupType] | undefined;
  const groups: [GroupType, string][] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = () => argv[++i] ?? '';
    const arg = argv[i];
    if (arg === '--base') base = next();
    else if (arg === '--prefix') prefix = next();
    else if (arg === '--group') groups.push([groupType(next()), next()]);
    else if (arg === '--missing') missing = next();
    else if (arg === '--health') health = next();
    else if (arg === '--mismatch') mismatch = [next(), groupType(next())];
    else throw new Error(`unknown argument ${arg}`);
  }
  const configuration = new Configuration({ basePath: base });
  const groupsApi = new GroupsApi(configuration);
  const offsetsApi = new OffsetsApi(configuration);

  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await groupsApi.listGroups({ prefix, limit: 2, ...(cursor !== undefined && { cursor }) });
    for (const entry of page.groups) console.log(`PAGE ${entry.groupId}`);
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor !== undefined && pages < 100);
  console.log(`PAGES ${pages}`);

  for (const [type, groupId] of groups) {
    const group = await groupsApi.getGroup({ groupId, type });
    console.log(`DESCRIBE ${group.type} ${group.groupId} ${describe(group)}`);
  }

  const batch = await groupsApi.describeGroups({
    batchDescribeRequest: { groupIds: [...groups.map(([, id]) => id), missing] },
  });
  for (const result of batch.results) console.log(outcome(result));

  const notFound = await problemOf(() => groupsApi.getGroup({ groupId: missing }));
  console.log(`NOTFOUND ${notFound.status} ${notFound.problem.type} ${notFound.problem.groupId}`);

  if (mismatch) {
    const [groupId, type] = mismatch;
    const { status, problem } = await problemOf(() => groupsApi.getGroup({ groupId, type }));
    console.log(`MISMATCH ${status} ${problem.type} ${problem.expectedType} ${problem.actualType}`);
  }

  const report = await offsetsApi.getGroupHealth({ groupId: health });
  console.log(`HEALTH ${report.groupId} ${report.type} ${report.verdict} ${report.partitions.length}`);
  console.log('DONE');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
