// A person's decision on a check whose automated outcome awaits one (KYC/KYB/KYA `review`, AML
// `potential_match`): made once, by an analyst in the dashboard or through the API, and recorded beside the
// automated outcome, which never changes.
import type { Transaction } from 'kysely';
import type { CheckReview, Platform, RecordEnvironment, StoredCheck } from '../core.ts';
import { DomainError } from '../errors.ts';
import type { CheckPage } from '../storage/checks.ts';
import type { Database } from '../storage/schema.ts';

export interface DecidedCheck {
  accountId: string;
  checkId: string;
  kind: string;
  environment: RecordEnvironment;
  review: CheckReview;
}

/** Runs inside the decision's transaction: what it stores commits with the decision or not at all. */
export type DecisionListener = (trx: Transaction<Database>, decided: DecidedCheck) => Promise<void>;

export interface ReviewsService {
  /**
   * Records the decision. DomainError `not_found` for a check the tenant does not have, `conflict` for one that
   * does not await a decision or was already decided.
   */
  decide(input: { accountId: string; checkId: string; decision: CheckReview['decision']; reason: string; decidedBy: string }): Promise<StoredCheck>;
  /** The tenant's checks awaiting a decision, oldest first. */
  queue(accountId: string, page: { limit: number; cursor?: string }): Promise<CheckPage>;
  onDecided(listener: DecisionListener): void;
}

export function createReviewsService(platform: Platform, now: () => Date = () => new Date()): ReviewsService {
  const listeners: DecisionListener[] = [];
  const { checks } = platform;

  return {
    async decide({ accountId, checkId, decision, reason, decidedBy }) {
      const check = await checks.find(accountId, checkId);
      if (!check) throw new DomainError('not_found', 'No such check');
      const awaiting = checks.kindOf(check.id)?.review?.awaiting ?? [];
      if (!awaiting.includes(check.summary.status)) {
        throw new DomainError('conflict', `The check's outcome is ${check.summary.status}; only a check awaiting review can be decided`);
      }
      const review: CheckReview = { decision, reason, decidedBy, decidedAt: now().toISOString() };
      const decided: DecidedCheck = { accountId, checkId, kind: check.kind, environment: check.environment, review };
      await checks.transaction(async (trx) => {
        if (!(await checks.recordReview(trx, check, review))) throw new DomainError('conflict', 'The check was already decided');
        await platform.events.emit(trx, {
          accountId,
          environment: check.environment,
          type: 'check.review_decided',
          data: { checkId, kind: check.kind, status: check.summary.status, review },
        });
        for (const listener of listeners) await listener(trx, decided);
      });
      return { ...check, record: { ...check.record, review } };
    },

    queue: (accountId, page) => checks.awaitingReview(accountId, page),

    onDecided(listener) {
      listeners.push(listener);
    },
  };
}
