// Building SourceAnswer values the same way in every adapter.
import type { Clock, SourceAnswer } from '../types.ts';
import type { HttpOutcome } from './http.ts';

const at = (clock: Clock) => new Date(clock.now()).toISOString();

export function found<R>(clock: Clock, record: R, summary: Record<string, unknown>): SourceAnswer<R> {
  return { outcome: 'found', record, retrievedAt: at(clock), summary };
}

export function notFound<R>(clock: Clock, reason: string, summary: Record<string, unknown> = {}): SourceAnswer<R> {
  return { outcome: 'not_found', reason, retrievedAt: at(clock), summary };
}

export function unavailable<R>(clock: Clock, reason: string, summary: Record<string, unknown> = {}): SourceAnswer<R> {
  return { outcome: 'unavailable', reason, retrievedAt: at(clock), summary };
}

export function fromFailure<R>(clock: Clock, outcome: Extract<HttpOutcome, { kind: 'failure' }>): SourceAnswer<R> {
  return unavailable(clock, outcome.reason, { detail: outcome.detail, attempts: outcome.attempts });
}

export function unexpectedStatus<R>(clock: Clock, status: number): SourceAnswer<R> {
  return unavailable(clock, status === 401 || status === 403 ? 'unauthorised' : 'unexpected_status', {
    httpStatus: status,
  });
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
