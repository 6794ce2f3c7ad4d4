// Publishing workflow versions and running them: a run is started in one transaction with its first job, and each
// job of the leased queue runs one step (its checks through the owning domain's service), records it and queues
// the next, so a run survives a restart and no step of it is taken by two instances at once.
import type { Kysely } from 'kysely';
import type { KeyEnvironment, RecordEnvironment } from '../core.ts';
import type { EventLog } from '../events/log.ts';
import type { DecidedCheck } from '../reviews/service.ts';
import { checkEnvironment } from '../storage/checks.ts';
import { DomainError, type FieldIssue } from '../errors.ts';
import { newId } from '../ids.ts';
import { type ClaimedJob, completeJob, completeJobWith, enqueueJob, releaseFailedJob } from '../storage/jobs.ts';
import type { Database } from '../storage/schema.ts';
import { BUILT_IN_VERSION, BUILT_IN_WORKFLOWS } from './builtins.ts';
import type { Decision, StepKind, WorkflowDefinition, WorkflowStep } from './definition.ts';
import { type Scope, allHold, checkDefinition, decide, executionOrder, fanOutItems, materialise, readsOnlyRunInput } from './engine.ts';
import type { RunRow, WorkflowRepository } from './repository.ts';
import { STEP_OUTPUTS, type StepRunner, checkStoredBy, requestIssues } from './steps.ts';
import type { RunStatus, WorkflowRunChecksTable } from './tables.ts';

export const RUN_STEP_JOB = 'workflow.step';

export interface PublishedWorkflow {
  name: string;
  version: number;
  builtIn: boolean;
  definition: WorkflowDefinition;
  createdAt: string | null;
}

export interface StepView {
  id: string;
  kind: StepKind;
  /** `waiting`: a manual_review step waiting for the decision on its check. */
  status: 'pending' | 'waiting' | 'completed' | 'skipped' | 'failed';
  /** The check the step created. */
  checkId?: string;
  /** Every check of a forEach step. */
  checkIds?: string[];
  error?: string;
}

export interface RunView {
  runId: string;
  workflow: string;
  version: number;
  status: RunStatus;
  decision: Decision | null;
  steps: StepView[];
  startedAt: string;
  completedAt: string | null;
}

interface RunState {
  steps: StepView[];
  /** Step outputs by step id: what `$steps.<id>` references read. */
  outputs: Record<string, unknown>;
}

export interface WorkflowsService {
  /** Throws DomainError `invalid_input` naming the path of what is wrong in the definition. */
  publish(accountId: string, name: string, definition: WorkflowDefinition): Promise<PublishedWorkflow>;
  /** The latest version, or the one asked for; built-ins for every tenant. */
  find(accountId: string, name: string, version?: number): Promise<PublishedWorkflow | undefined>;
  list(accountId: string): Promise<PublishedWorkflow[]>;
  /** Undefined for a workflow the tenant cannot run; throws `invalid_input` for an input its first steps refuse. */
  startRun(caller: { accountId: string; keyEnvironment: KeyEnvironment }, name: string, input: unknown): Promise<RunView | undefined>;
  findRun(accountId: string, runId: string): Promise<RunView | undefined>;
  listRuns(accountId: string, options: { limit: number; checkId?: string }): Promise<RunView[]>;
  /** Runs the next step of a run (or decides it), landing the result only while this worker holds the job. */
  runStepJob(job: ClaimedJob, workerId: string): Promise<void>;
  /**
   * What an evidence bundle of a run holds: the run with its definition and decision trail, and every check it
   * created or had decided, in step order.
   */
  bundleSubject(accountId: string, runId: string): Promise<{ record: Record<string, unknown>; environment: RecordEnvironment; checkIds: string[] } | undefined>;
  /** In the decision's transaction: the runs waiting for this check's decision go on running. */
  resumeAfterDecision(trx: Kysely<Database>, decided: DecidedCheck): Promise<void>;
}

const builtIn = (name: string): PublishedWorkflow | undefined =>
  Object.hasOwn(BUILT_IN_WORKFLOWS, name) ? { name, version: BUILT_IN_VERSION, builtIn: true, definition: BUILT_IN_WORKFLOWS[name], createdAt: null } : undefined;

export function toRunView(row: RunRow): RunView {
  const state = JSON.parse(row.state) as RunState;
  return {
    runId: row.id,
    workflow: row.workflow,
    version: row.version,
    status: row.status,
    decision: row.decision as Decision | null,
    steps: state.steps,
    startedAt: row.created_at,
    completedAt: row.completed_at,
  };
}

/** Failures that retrying cannot change: the step's request is refused as such. */
const isPermanent = (error: unknown) => error instanceof DomainError && ['invalid_input', 'too_large', 'not_screened'].includes(error.code);

function describeFailure(error: unknown): string {
  if (error instanceof DomainError && error.issues.length > 0) return `${error.message}: ${error.issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ')}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where an issue in a step's request body lies in the run request: the run input field the step took it from, when
 * the step copied that field by reference; otherwise the whole input.
 */
function inputPath(step: WorkflowStep, issuePath: string): string {
  if (step.input === '$input') return `/input${issuePath}`;
  const [, field, ...rest] = issuePath.split('/');
  const source = step.input !== null && typeof step.input === 'object' && field !== undefined ? (step.input as Record<string, unknown>)[field] : undefined;
  if (typeof source === 'string' && source.startsWith('$input')) {
    const fromInput = source.slice('$input'.length).split('.').filter(Boolean);
    return ['/input', ...fromInput, ...rest].join('/').replace(/^\/input\/?$/, '/input');
  }
  return '/input';
}

/** Stores the next version of a tenant's workflow; throws DomainError `invalid_input` naming what is wrong. */
export async function publishWorkflow(repository: WorkflowRepository, accountId: string, name: string, definition: WorkflowDefinition): Promise<PublishedWorkflow> {
  const issues: FieldIssue[] = builtIn(name) ? [{ path: '/name', message: 'is a built-in workflow' }] : [];
  issues.push(...checkDefinition(definition, STEP_OUTPUTS).map((issue) => ({ ...issue, path: `/definition${issue.path}` })));
  if (issues.length > 0) throw DomainError.invalid(issues);
  return toPublished(await repository.publish(accountId, name, definition, new Date()));
}

const toPublished = (row: { name: string; version: number; definition: string; created_at: string }): PublishedWorkflow => ({
  name: row.name,
  version: row.version,
  builtIn: false,
  definition: JSON.parse(row.definition) as WorkflowDefinition,
  createdAt: row.created_at,
});

export function createWorkflowsService(deps: {
  db: Kysely<Database>;
  repository: WorkflowRepository;
  runStep: StepRunner;
  events: EventLog;
  kickWorker(): void;
}): WorkflowsService {
  const { db, repository } = deps;

  async function find(accountId: string, name: string, version?: number): Promise<PublishedWorkflow | undefined> {
    const builtin = builtIn(name);
    if (builtin) return version === undefined || version === builtin.version ? builtin : undefined;
    const row = await repository.findDefinition(accountId, name, version);
    return row && toPublished(row);
  }

  async function finish(trx: Kysely<Database>, run: RunRow, state: RunState, status: RunStatus, decision: Decision | null, now: Date) {
    await repository.updateRun(trx, run.id, { state: JSON.stringify(state), status, decision, completed_at: now.toISOString(), input: '{}', awaiting_check: null });
    await deps.events.emit(
      trx,
      {
        accountId: run.account_id,
        environment: checkEnvironment(run.key_environment),
        type: 'workflow_run.completed',
        data: { runId: run.id, workflow: run.workflow, version: run.version, status, decision },
      },
      now,
    );
  }

  return {
    publish: (accountId, name, definition) => publishWorkflow(repository, accountId, name, definition),

    find,

    async list(accountId) {
      const own = (await repository.latestDefinitions(accountId)).map(toPublished);
      return [...Object.keys(BUILT_IN_WORKFLOWS).map((name) => builtIn(name)!), ...own];
    },

    async startRun(caller, name, input) {
      const workflow = await find(caller.accountId, name);
      if (!workflow) return undefined;
      const { definition } = workflow;
      const scope: Scope = { input, outputs: {} };
      const issues = definition.steps
        .filter((step) => readsOnlyRunInput(step) && allHold(step.when, scope))
        .flatMap((step) => requestIssues(step.kind, materialise(step.input, scope)).map((issue) => ({ ...issue, path: inputPath(step, issue.path) })));
      if (issues.length > 0) throw DomainError.invalid(issues);

      const now = new Date();
      const state: RunState = { steps: definition.steps.map((step) => ({ id: step.id, kind: step.kind, status: 'pending' })), outputs: {} };
      const row: RunRow = {
        id: newId('wfr'),
        account_id: caller.accountId,
        key_environment: caller.keyEnvironment,
        workflow: workflow.name,
        version: workflow.version,
        definition: JSON.stringify(definition),
        input: JSON.stringify(input),
        state: JSON.stringify(state),
        status: 'running',
        decision: null,
        created_at: now.toISOString(),
        completed_at: null,
        awaiting_check: null,
      };
      await db.transaction().execute(async (trx) => {
        await repository.insertRun(trx, row);
        await enqueueJob(trx, RUN_STEP_JOB, { runId: row.id }, now);
      });
      deps.kickWorker();
      return toRunView(row);
    },

    async findRun(accountId, runId) {
      const row = await repository.findRun(accountId, runId);
      return row && toRunView(row);
    },

    async listRuns(accountId, options) {
      return (await repository.listRuns(accountId, options)).map(toRunView);
    },

    async runStepJob(job, workerId) {
      const { runId } = job.payload as { runId: string };
      const run = await repository.loadRun(runId);
      // A run's last step decides it, so a running run always has a pending step; a job left over is done.
      const definition = run && (JSON.parse(run.definition) as WorkflowDefinition);
      const state = run && (JSON.parse(run.state) as RunState);
      const stepState = (id: string) => state!.steps.find((step) => step.id === id)!;
      const step = definition && executionOrder(definition).find((candidate) => ['pending', 'waiting'].includes(stepState(candidate.id).status));
      if (!run || run.status !== 'running' || !definition || !state || !step) {
        await completeJob(db, job, workerId, new Date());
        return;
      }
      const scope: Scope = { input: JSON.parse(run.input), outputs: state.outputs };
      const caller = { accountId: run.account_id, keyEnvironment: run.key_environment };

      const land = (work: (trx: Kysely<Database>, now: Date) => Promise<void>) => completeJobWith(db, job, workerId, work);

      try {
        const links: WorkflowRunChecksTable[] = [];
        if (!allHold(step.when, scope)) {
          stepState(step.id).status = 'skipped';
        } else {
          const bodies = step.forEach
            ? fanOutItems(step, scope).map((item) => materialise(step.input, { ...scope, item }))
            : [materialise(step.input, scope)];
          const result = await deps.runStep(step.kind, caller, bodies, { runId: run.id, stepId: step.id });
          if ('awaiting' in result) {
            // Nothing more to do until a person decides; the decision's transaction queues the next job.
            Object.assign(stepState(step.id), { status: 'waiting', checkId: result.awaiting });
            await land((trx) => repository.updateRun(trx, run.id, { state: JSON.stringify(state), status: 'review', awaiting_check: result.awaiting }).then(() => undefined));
            return;
          }
          Object.assign(stepState(step.id), { status: 'completed' }, step.forEach ? { checkIds: result.checkIds } : { checkId: result.reviewed ?? result.checkIds[0] });
          state.outputs[step.id] = step.forEach ? result.outputs : result.outputs[0];
          links.push(...result.checkIds.map((checkId) => ({ check_id: checkId, run_id: run.id, step_id: step.id, account_id: run.account_id })));
        }
        // After the last step the run is decided in the same transaction, not by one more job.
        const last = state.steps.every((candidate) => candidate.status !== 'pending' && candidate.status !== 'waiting');
        await land(async (trx, now) => {
          await repository.linkChecks(trx, links);
          if (last) {
            const decision = decide(definition, scope);
            await finish(trx, run, state, decision === 'review' ? 'review' : 'completed', decision, now);
          } else {
            await repository.updateRun(trx, run.id, { state: JSON.stringify(state), awaiting_check: null });
            await enqueueJob(trx, RUN_STEP_JOB, { runId: run.id }, now);
          }
        });
        if (!last) deps.kickWorker();
      } catch (error) {
        const reason = describeFailure(error);
        const storedCheck = checkStoredBy(error);
        const failRun = async (trx: Kysely<Database>, now: Date) => {
          Object.assign(stepState(step.id), { status: 'failed', error: reason.slice(0, 1000) }, storedCheck ? { checkId: storedCheck } : {});
          await finish(trx, run, state, 'failed', null, now);
          if (storedCheck) await repository.linkChecks(trx, [{ check_id: storedCheck, run_id: run.id, step_id: step.id, account_id: run.account_id }]);
        };
        if (isPermanent(error)) {
          await land(failRun);
          return;
        }
        const now = new Date();
        if ((await releaseFailedJob(db, job, workerId, reason, now)) === 'failed') await db.transaction().execute((trx) => failRun(trx, now));
      }
    },

    async bundleSubject(accountId, runId) {
      const row = await repository.findRun(accountId, runId);
      if (!row) return undefined;
      const run = toRunView(row);
      const checkIds = [...new Set(run.steps.flatMap((step) => step.checkIds ?? (step.checkId ? [step.checkId] : [])))];
      return { record: { ...run, definition: JSON.parse(row.definition) }, environment: checkEnvironment(row.key_environment), checkIds };
    },

    async resumeAfterDecision(trx, decided) {
      const now = new Date();
      for (const { id } of await repository.awaitingDecision(trx, decided.accountId, decided.checkId)) {
        await repository.updateRun(trx, id, { status: 'running', awaiting_check: null });
        await enqueueJob(trx, RUN_STEP_JOB, { runId: id }, now);
      }
    },
  };
}
