/*
 * Drives the client @hey-api/openapi-ts made (its defaults: types, SDK functions, its fetch client)
 * from the live /openapi.json against the running API, and prints what it read, one fact a line,
 * for test/integration/ts-clients.test.ts. Compiled with `tsc --strict` beside the generated
 * sources (test/clients/ts-client.ts): groups and batch outcomes are narrowed on their
 * discriminators with no cast, and problems come typed as the document's Problem.
 *
 *   node check.js --base URL --prefix P --group TYPE ID [...] --missing ID --mismatch ID TYPE --health ID
 *
 * Output lines: as typescript-fetch-check.ts.
 */

import { client } from './generated/client.gen.js';
import {
  type BatchDescribeOutcome,
  describeGroups,
  type Group,
  getGroup,
  getGroupHealth,
  listGroups,
  type Problem,
} from './generated/index.js';

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

/** What a call answered: its data, or the problem (typed by the document) with the status. */
function must<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined)
    throw new Error(`${answer.response.status}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

function problemOf(answer: { error?: Problem; response: Response }): { status: number; problem: Problem } {
  if (answer.error === undefined) throw new Error('the call succeeded');
  return { status: answer.response.status, problem: answer.error };
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
  client.setConfig({ baseUrl: base });

  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = must(
      await listGroups({ query: { prefix, limit: 2, ...(cursor !== undefined && { cursor }) } }),
    );
    for (const entry of page.groups) console.log(`PAGE ${entry.groupId}`);
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor !== undefined && pages < 100);
  console.log(`PAGES ${pages}`);

  for (const [type, groupId] of groups) {
    const group = must(await getGroup({ path: { groupId }, query: { type } }));
    console.log(`DESCRIBE ${group.type} ${group.groupId} ${describe(group)}`);
  }

  const batch = must(await describeGroups({ body: { groupIds: [...groups.map(([, id]) => id), missing] } }));
  for (const result of batch.results) console.log(outcome(result));

  const notFound = problemOf(await getGroup({ path: { groupId: missing } }));
  console.log(`NOTFOUND ${notFound.status} ${notFound.problem.type} ${notFound.problem.groupId}`);

  if (mismatch) {
    const [groupId, type] = mismatch;
    const { status, problem } = problemOf(await getGroup({ path: { groupId }, query: { type } }));
    console.log(`MISMATCH ${status} ${problem.type} ${problem.expectedType} ${problem.actualType}`);
  }

  const report = must(await getGroupHealth({ path: { groupId: health } }));
  console.log(`HEALTH ${report.groupId} ${report.type} ${report.verdict} ${report.partitions.length}`);
  console.log('DONE');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
