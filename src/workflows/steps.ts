// Each step kind as the workflow engine sees it: the request body it takes, the output it produces (the check's
// public record) and how it runs, through the service of the domain that owns the check.
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { CheckReview, KeyEnvironment, ModuleServices } from '../core.ts';
import { DomainError, type FieldIssue } from '../errors.ts';
import { ScreeningQueryBody, ScreeningRecord } from '../aml/schemas.ts';
import { validateScreeningQuery } from '../aml/validate.ts';
import { KybVerifyRequest, KybVerifyResponse } from '../kyb/schemas.ts';
import { KycCheckResult, KycVerifyRequest } from '../kyc/schemas.ts';
import { KyaVerifyRequest, KyaVerifyResponse } from '../kya/schemas.ts';
import { Decision } from '../reviews/schemas.ts';
import type { CheckStore } from '../storage/checks.ts';
import type { StepKind } from './definition.ts';
import type { OutputSchemas } from './engine.ts';

export interface StepCaller {
  accountId: string;
  keyEnvironment: KeyEnvironment;
}

/** Which step of which run: the seed of the ids its checks are stored under. */
export interface StepAttempt {
  runId: string;
  stepId: string;
}

export interface StepResult {
  /** The checks the step created. */
  checkIds: string[];
  /** The checks' public records: one, or for a fan-out the list. */
  outputs: unknown[];
  /** The earlier check a manual_review step decided. */
  reviewed?: string;
}

/** A manual_review step whose check nobody decided yet: the run waits for that decision. */
export interface AwaitedDecision {
  awaiting: string;
}

const ManualReviewRequest = Type.Object(
  { checkId: Type.String({ minLength: 1, maxLength: 100, description: 'The check a person decides (usually $steps.<id>.checkId or its kind\'s id field)' }) },
  { additionalProperties: false },
);
type ManualReviewRequest = Static<typeof ManualReviewRequest>;

const ManualReviewOutput = Type.Object({
  checkId: Type.String(),
  decision: Decision,
  reason: Type.String(),
  decidedBy: Type.String(),
  decidedAt: Type.String({ format: 'date-time' }),
});

const REQUESTS: Record<StepKind, TSchema> = {
  kyc: KycVerifyRequest,
  kyb: KybVerifyRequest,
  aml: ScreeningQueryBody,
  kya: KyaVerifyRequest,
  manual_review: ManualReviewRequest,
};

export const STEP_OUTPUTS: OutputSchemas = {
  kyc: KycCheckResult,
  kyb: KybVerifyResponse,
  aml: ScreeningRecord,
  kya: KyaVerifyResponse,
  manual_review: ManualReviewOutput,
};

/** What `value` breaks of `schema`, one issue per field (JSON Pointers into the value). */
export function schemaIssues(schema: TSchema, value: unknown): FieldIssue[] {
  return Value.Errors(schema, value)
    // a union reports each branch it tried; the union's own issue says it once
    .filter((error) => !/anyOf\/\d+$/.test(error.schemaPath))
    // an unknown field is reported twice (as a field no schema allows, and on its object): once is enough
    .filter((error) => error.keyword !== 'boolean')
    .flatMap((error) => {
      const { additionalProperties, requiredProperties } = error.params as { additionalProperties?: string[]; requiredProperties?: string[] };
      if (additionalProperties) return additionalProperties.map((field) => ({ path: `${error.instancePath}/${field}`, message: 'is not an allowed property' }));
      if (requiredProperties) return requiredProperties.map((field) => ({ path: `${error.instancePath}/${field}`, message: 'is required' }));
      return [{ path: error.instancePath, message: error.message }];
    });
}

/** What is wrong with a step's request body, as its own endpoint would say (JSON Pointers into the body). */
export function requestIssues(kind: StepKind, body: unknown): FieldIssue[] {
  const issues = schemaIssues(REQUESTS[kind], body);
  if (issues.length > 0 || kind !== 'aml') return issues;
  const query = validateScreeningQuery(body as ScreeningQueryBody);
  return query.ok ? [] : query.errors;
}

/**
 * A manual_review step: the decision on the check when a person made it, else what to wait for. A check that
 * does not await a decision (its outcome needs none) cannot be decided, so the step is refused.
 */
async function reviewedCheck(checks: Pick<CheckStore, 'find' | 'kindOf'>, caller: StepCaller, body: ManualReviewRequest): Promise<StepResult | AwaitedDecision> {
  const check = await checks.find(caller.accountId, body.checkId);
  if (!check) throw DomainError.invalid([{ path: '/checkId', message: 'names no check of this account' }]);
  const review = check.record.review as CheckReview | undefined;
  if (review) return { checkIds: [], outputs: [{ checkId: check.id, ...review }], reviewed: check.id };
  if (!checks.kindOf(check.id)?.review?.awaiting.includes(check.summary.status)) {
    throw DomainError.invalid([{ path: '/checkId', message: `names a check whose outcome (${check.summary.status}) awaits no decision` }]);
  }
  return { awaiting: check.id };
}

/**
 * Runs one step's checks; a fan-out's screenings are stored together, in one AML batch. Each check is stored under
 * an id derived from the run, the step and its position, so a step run again after its worker died between
 * storing a check and recording the step finds that check instead of making (and billing) a second one.
 */
export function createStepRunner(services: Pick<ModuleServices, 'aml' | 'kyc' | 'kyb' | 'kya'>, checks: Pick<CheckStore, 'find' | 'kindOf' | 'newId'>) {
  return async function runStep(kind: StepKind, caller: StepCaller, bodies: unknown[], attempt: StepAttempt): Promise<StepResult | AwaitedDecision> {
    // Structure here; an AML query's meaning is checked once, where it is turned into the query to screen.
    for (const body of bodies) {
      const issues = schemaIssues(REQUESTS[kind], body);
      if (issues.length > 0) throw DomainError.invalid(issues);
    }
    if (kind === 'manual_review') return reviewedCheck(checks, caller, bodies[0] as ManualReviewRequest);

    const ids = bodies.map((_, index) => checks.newId(kind, `${attempt.runId}:${attempt.stepId}:${index}`));
    const stored = await Promise.all(ids.map((id) => checks.find(caller.accountId, id)));
    const missing = bodies.map((body, index) => ({ body, index })).filter(({ index }) => stored[index] === undefined);
    const made = new Map<number, unknown>();
    switch (kind) {
      case 'aml': {
        const queries = missing.map(({ body }) => {
          const query = validateScreeningQuery(body as ScreeningQueryBody);
          if (!query.ok) throw DomainError.invalid(query.errors);
          return query.value;
        });
        if (queries.length > 0) {
          const monitor = missing.map(({ body }) => (body as ScreeningQueryBody).monitor === true);
          const records = await services.aml.screenAndStore({ ...caller, checkIds: missing.map(({ index }) => ids[index]), monitor }, queries);
          records.forEach((record, position) => made.set(missing[position].index, record));
        }
        break;
      }
      case 'kyc':
        for (const { body, index } of missing) made.set(index, await services.kyc.verify({ ...caller, checkId: ids[index] }, body as KycVerifyRequest));
        break;
      case 'kyb':
        for (const { body, index } of missing) made.set(index, await services.kyb.verify({ ...caller, checkId: ids[index] }, body as KybVerifyRequest));
        break;
      case 'kya':
        for (const { body, index } of missing) {
          const kyaCaller = { accountId: caller.accountId, environment: caller.keyEnvironment, checkId: ids[index] };
          made.set(index, await services.kya.verify(kyaCaller, body as KyaVerifyRequest));
        }
        break;
    }
    return { checkIds: ids, outputs: ids.map((_, index) => (made.has(index) ? made.get(index) : stored[index]!.record)) };
  };
}

/** The check a refused step still stored for the audit trail (a KYA verification no model judged), if any. */
export function checkStoredBy(error: unknown): string | undefined {
  const id = error instanceof DomainError ? error.details?.verificationId : undefined;
  return typeof id === 'string' ? id : undefined;
}

export type StepRunner = ReturnType<typeof createStepRunner>;
