import { describe, expect, it } from 'vitest';
import { decide } from '../../src/kyb/checks.ts';
import { backoffDelayMs, createSourceHttpClient, createTokenBucket } from '../../src/kyb/sources/http.ts';
import type { KybCheck } from '../../src/kyb/types.ts';

const c = (name: KybCheck['name'], result: KybCheck['result']): KybCheck => ({ name, result, reasons: [] });

describe('decision rule', () => {
  it('passes only when every check that ran passed', () => {
    expect(decide([c('registry', 'passed'), c('tax', 'skipped'), c('aml', 'passed')])).toEqual({ status: 'passed', riskLevel: 'low', score: 1 });
  });

  it('weights the checks and caps the score under review and on failure', () => {
    // registry 0.35·0.5 + aml 0.25·1 over 0.6 = 0.708…
    expect(decide([c('registry', 'review'), c('aml', 'passed')])).toEqual({ status: 'review', riskLevel: 'medium', score: 0.71 });
    expect(decide([c('registry', 'passed'), c('lei', 'review'), c('aml', 'passed')]).score).toBe(0.8);
    expect(decide([c('registry', 'passed'), c('tax', 'passed'), c('aml', 'failed')])).toEqual({ status: 'failed', riskLevel: 'high', score: 0.3 });
  });
});

describe('rate limit and back-off', () => {
  it('lets a burst through, then spaces requests at the configured rate', () => {
    let now = 0;
    const bucket = createTokenBucket(2, 2, { now: () => now });
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 500]);
    now = 1000;
    expect(bucket.reserve()).toBe(0);
  });

  it('doubles the back-off ceiling each retry', () => {
    expect([1, 2, 3].map((retry) => backoffDelayMs(100, retry, () => 1))).toEqual([100, 200, 400]);
    expect(backoffDelayMs(100, 3, () => 0)).toBe(200);
  });

  it('does not call a register when the local rate limit leaves no time in the budget', async () => {
    const clock = { now: () => Date.now() };
    const client = createSourceHttpClient(
      { baseUrl: 'http://127.0.0.1:9', timeoutMs: 100, maxAttempts: 1, ratePerSecond: 0.1, burst: 0, backoffBaseMs: 10 },
      clock,
    );
    const outcome = await client.send({ method: 'GET', path: '/' }, { deadline: Date.now() + 200, clock });
    expect(outcome).toEqual({ kind: 'failure', reason: 'rate_limited', detail: expect.any(String), attempts: 0 });
  });
});
