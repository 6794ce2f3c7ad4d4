// The one HTTP path every register adapter takes: per-attempt timeout, a local token bucket that keeps us inside the
// register's published rate limit, and retries with exponential back-off — all inside the caller's deadline, so a
// slow register costs at most the time budget, never more.
import { request } from 'undici';
import type { Clock, LookupContext } from '../types.ts';

export interface SourceEndpointConfig {
  baseUrl: string;
  /** Longest single attempt. */
  timeoutMs: number;
  /** Attempts including the first. */
  maxAttempts: number;
  /** Sustained requests per second allowed by the register (token refill rate). */
  ratePerSecond: number;
  /** Requests allowed back to back before the rate applies. */
  burst: number;
  /** First back-off delay; doubles each retry. */
  backoffBaseMs: number;
}

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
}

export type HttpOutcome =
  | { kind: 'response'; response: HttpResponse; attempts: number }
  | { kind: 'failure'; reason: string; detail: string; attempts: number };

/** Says why a response is a passing failure worth retrying (a reason code), or null when it is the answer. */
export type TransientClassifier = (response: HttpResponse) => string | null;

export const transientHttpStatus: TransientClassifier = (response) => {
  if (response.status === 429) return 'rate_limited';
  if (response.status >= 500) return `http_${response.status}`;
  return null;
};

export interface SourceHttpClient {
  send(call: HttpCall, context: LookupContext, transient?: TransientClassifier): Promise<HttpOutcome>;
}

export function createTokenBucket(ratePerSecond: number, burst: number, clock: Clock) {
  let tokens = burst;
  let updatedAt = clock.now();
  return {
    /** Takes a token and returns how long to wait before using it (0 when one is free now). */
    reserve(): number {
      const now = clock.now();
      tokens = Math.min(burst, tokens + ((now - updatedAt) / 1000) * ratePerSecond);
      updatedAt = now;
      tokens -= 1;
      return tokens >= 0 ? 0 : Math.ceil((-tokens / ratePerSecond) * 1000);
    },
    /** Gives back a token reserved for a call that was not made. */
    release(): void {
      tokens = Math.min(burst, tokens + 1);
    },
  };
}

export function backoffDelayMs(baseMs: number, retry: number, random: () => number = Math.random): number {
  const ceiling = baseMs * 2 ** (retry - 1);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function retryAfterMs(response: HttpResponse): number | undefined {
  const header = response.headers['retry-after'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function describeError(error: unknown): { reason: string; detail: string } {
  const err = error as { name?: string; code?: string; message?: string };
  const timedOut =
    err?.name === 'TimeoutError' ||
    err?.name === 'AbortError' ||
    err?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    err?.code === 'UND_ERR_BODY_TIMEOUT' ||
    err?.code === 'UND_ERR_CONNECT_TIMEOUT';
  if (timedOut) return { reason: 'timeout', detail: 'the source did not answer in time' };
  return { reason: 'network_error', detail: err?.code ?? err?.message ?? 'request failed' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createSourceHttpClient(config: SourceEndpointConfig, clock: Clock): SourceHttpClient {
  const bucket = createTokenBucket(config.ratePerSecond, config.burst, clock);
  const base = config.baseUrl.replace(/\/+$/, '');

  async function attempt(call: HttpCall, timeoutMs: number): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (call.json !== undefined) headers['content-type'] = 'application/json';
    const answer = await request(base + call.path, {
      method: call.method,
      headers,
      body: call.json === undefined ? undefined : JSON.stringify(call.json),
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await answer.body.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: answer.statusCode, headers: answer.headers, body };
  }

  return {
    async send(call, context, transient = transientHttpStatus) {
      let failure = { reason: 'timeout', detail: 'no time left in the budget to ask the source' };
      let attempts = 0;
      while (attempts < config.maxAttempts) {
        const wait = bucket.reserve();
        if (clock.now() + wait >= context.deadline) {
          bucket.release();
          if (attempts === 0) failure = { reason: 'rate_limited', detail: 'local rate limit leaves no time in the budget' };
          break;
        }
        if (wait > 0) await sleep(wait);
        const remaining = context.deadline - clock.now();
        if (remaining <= 0) break;
        attempts += 1;
        let pause = 0;
        try {
          const response = await attempt(call, Math.min(config.timeoutMs, remaining));
          const transientReason = transient(response);
          if (transientReason === null) return { kind: 'response', response, attempts };
          failure = { reason: transientReason, detail: `HTTP ${response.status}` };
          pause = retryAfterMs(response) ?? 0;
        } catch (error) {
          failure = describeError(error);
        }
        if (attempts >= config.maxAttempts) break;
        pause = Math.max(pause, backoffDelayMs(config.backoffBaseMs, attempts));
        if (clock.now() + pause >= context.deadline) break;
        await sleep(pause);
      }
      return { kind: 'failure', ...failure, attempts };
    },
  };
}
