/**
 * The audit trail of the writes: one structured log line per write attempt, whatever its outcome,
 * through the app's logger (a JSON object a line). `guardedWrite` is what every write route calls:
 * it passes the write gate (http/write-guard.ts), runs the write and logs the line, so no route can
 * write without both.
 *
 * The line (message `audit`):
 *   principal   `key:<name>`, `jwt:<sub>` or `anonymous`
 *   operation   the route's operationId (deleteGroup, deleteGroupOffsets, resetGroupOffsets, …)
 *   action      the grant action the write needs
 *   method, route, path   e.g. DELETE, /groups/:groupId, /groups/orders%2Feu
 *   groupId, type, dryRun
 *   outcome     `done` (2xx), `refused` (4xx: not allowed, not found, not empty, …) or `failed` (5xx)
 *   sent        whether a write request left for Kafka (groups/writes/progress.ts): false, nothing
 *               changed; true, applied, refused by Kafka, or not known where Kafka did not answer
 *   status, problem, detail   the HTTP status, and the problem's slug and detail when not done
 *   …details    what the route noted: what was deleted or planned, offsets before and after
 *
 * Successful lines are `info`, the others `warn`: keep LOG_LEVEL at info or below to keep them all.
 * Never a secret: credentials never reach the route, and a detail whose key looks like a token,
 * password, secret or authorization is replaced by "[redacted]" (a reset plan's token is a bearer
 * of the plan; the line says what the plan was instead).
 */

import type { Context } from 'hono';
import type { WritesSetting } from '../config.js';
import { GroupNotFoundError } from '../groups/errors.js';
import type { Group } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { type WriteProgress, writeProgress } from '../groups/writes/progress.js';
import type { Logger } from '../logger.js';
import { problemFor } from './problem-rows.js';
import type { WriteTarget } from './write-guard.js';
import { authorizeWrite, authorizeWriteAccess } from './write-guard.js';
import { markWriteSent } from './write-sent.js';

/** What a write route needs besides its request: the service, WRITES, the logger. */
export interface WriteDeps {
  service: GroupService;
  writes: WritesSetting;
  logger: Logger;
}

export interface WriteRequest extends WriteTarget {
  /** The route's operationId. */
  operation: string;
  dryRun?: boolean;
}

export type AuditOutcome = 'done' | 'refused' | 'failed';

/** Facts a route adds to its audit line (merged, later notes win): JSON-ready values only. */
export type AuditDetails = Record<string, unknown>;

export interface AuditNotes {
  note(details: AuditDetails): void;
  /** Handed to the write, which marks it when its request leaves for Kafka. */
  readonly progress: WriteProgress;
}

export interface AuditLine {
  principal: string;
  operation: string;
  action: string;
  method: string;
  route: string;
  path: string;
  groupId: string;
  type: string;
  dryRun: boolean;
  outcome: AuditOutcome;
  sent: boolean;
  status: number;
  problem?: string;
  detail?: string;
  [detail: string]: unknown;
}

const SECRET_KEY = /token|secret|password|authorization|credential|api.?key/i;

function redact(details: AuditDetails): AuditDetails {
  // fromEntries defines own properties: a detail named `__proto__` stays a detail.
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [key, SECRET_KEY.test(key) ? '[redacted]' : value]),
  ) as AuditDetails;
}

/** The line for one attempt; exported for the unit tests. */
export function auditLine(
  c: Context,
  request: WriteRequest,
  result: { status: number; problem?: string; detail?: string },
  details: AuditDetails,
  sent = false,
): AuditLine {
  const outcome: AuditOutcome = result.status < 400 ? 'done' : result.status < 500 ? 'refused' : 'failed';
  return {
    ...redact(details),
    principal: c.get('principal')?.id ?? 'unknown',
    operation: request.operation,
    action: request.action,
    method: c.req.method,
    route: c.req.routePath,
    path: c.req.path,
    groupId: request.groupId,
    type: request.type,
    dryRun: request.dryRun ?? false,
    outcome,
    sent,
    status: result.status,
    ...(result.problem !== undefined && { problem: result.problem }),
    ...(result.detail !== undefined && { detail: result.detail }),
  };
}

export function logAudit(logger: Logger, line: AuditLine): void {
  if (line.outcome === 'done') logger.info('audit', line);
  else logger.warn('audit', line);
}

/**
 * Runs one write: the gate (WRITES, grants, the group exists and is of the type asked), then
 * `run` with the described group, then the audit line. `run` notes what it plans or changes as
 * it goes, so a write that fails half-way still logs what it had planned. Errors are rethrown
 * for the app's error mapping; the line names the problem they become.
 */
export function guardedWrite<T>(
  c: Context,
  deps: WriteDeps,
  request: WriteRequest,
  run: (group: Group, audit: AuditNotes) => Promise<T>,
  /** The status of the answer when `run` returns (default 200). */
  status = 200,
): Promise<T> {
  return guarded(c, deps, request, () => authorizeWrite(c, deps.writes, deps.service, request), run, status);
}

/**
 * As guardedWrite, for the one write that may create its group (a share group's reset with
 * create=true): `run` gets null when the group does not exist. The caller's grants are checked
 * first as for every write, so a group the caller may not see is never one it may create.
 */
export function guardedWriteOrCreate<T>(
  c: Context,
  deps: WriteDeps,
  request: WriteRequest,
  run: (group: Group | null, audit: AuditNotes) => Promise<T>,
): Promise<T> {
  const gate = async (): Promise<Group | null> => {
    authorizeWriteAccess(c, deps.writes, request);
    try {
      return await authorizeWrite(c, deps.writes, deps.service, request);
    } catch (error) {
      if (error instanceof GroupNotFoundError) return null;
      throw error;
    }
  };
  return guarded(c, deps, request, gate, run, 200);
}

async function guarded<G, T>(
  c: Context,
  deps: WriteDeps,
  request: WriteRequest,
  gate: () => Promise<G>,
  run: (group: G, audit: AuditNotes) => Promise<T>,
  status: number,
): Promise<T> {
  let details: AuditDetails = {};
  const progress = writeProgress();
  const notes: AuditNotes = {
    note(more) {
      details = { ...details, ...more };
    },
    progress,
  };
  try {
    const result = await run(await gate(), notes);
    logAudit(deps.logger, auditLine(c, request, { status }, details, progress.sent));
    return result;
  } catch (error) {
    markWriteSent(c, progress.sent);
    const problem = problemFor(error, c.req.path);
    logAudit(
      deps.logger,
      auditLine(
        c,
        request,
        { status: problem.status, problem: problem.slug, detail: problem.detail },
        details,
        progress.sent,
      ),
    );
    throw error;
  }
}
