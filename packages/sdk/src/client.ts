// A typed client for kyx: openapi-fetch over the generated types, with the specification's back-off (Retry-After,
// else RateLimit-Reset, else exponential from one second), never retrying a daily-cap or monthly-quota 429, and an
// Idempotency-Key on every POST so a retried POST never runs twice.
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './openapi.d.ts';

export interface KyxClientOptions {
  baseUrl: string;
  /** An API key (svc_…) or an access token. */
  apiKey: string;
  /** Attempts after the first (default 3). */
  maxRetries?: number;
  fetch?: typeof fetch;
  /** How to wait (tests may record the waits). */
  sleep?: (ms: number) => Promise<void>;
}

/** 429s that waiting a few seconds cannot cure. */
const NOT_RETRIED = new Set(['DAILY_CAP_EXCEEDED', 'MONTHLY_QUOTA_EXCEEDED']);

/** How long to wait before retry `attempt` (1-based) of an answer that may be retried; null when it may not. */
export async function retryDelayMs(response: Response, attempt: number): Promise<number | null> {
  const transient = response.status === 429 || response.status === 503 || response.status === 502 || response.status === 504;
  if (!transient) return null;
  if (response.status === 429) {
    const body = (await response.clone().json().catch(() => ({}))) as { code?: string };
    if (body.code && NOT_RETRIED.has(body.code)) return null;
  }
  const seconds = (name: string) => {
    const value = Number(response.headers.get(name));
    return response.headers.has(name) && Number.isFinite(value) && value >= 0 ? value : null;
  };
  const wait = seconds('retry-after') ?? seconds('ratelimit-reset');
  return wait !== null ? wait * 1000 : 1000 * 2 ** (attempt - 1);
}

export function createKyxClient(options: KyxClientOptions) {
  const maxRetries = options.maxRetries ?? 3;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const send = options.fetch ?? fetch;

  const retryingFetch = async (input: Request): Promise<Response> => {
    const request = input.method === 'POST' && !input.headers.has('idempotency-key') ? withHeader(input, 'idempotency-key', randomUUID()) : input;
    const body = request.body ? await request.arrayBuffer() : undefined;
    for (let attempt = 1; ; attempt++) {
      const response = await send(new Request(request, body === undefined ? {} : { body }));
      const delay = attempt <= maxRetries ? await retryDelayMs(response, attempt) : null;
      if (delay === null) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };

  return createClient<paths>({ baseUrl: options.baseUrl, headers: { authorization: `Bearer ${options.apiKey}` }, fetch: retryingFetch });
}

function withHeader(request: Request, name: string, value: string): Request {
  const headers = new Headers(request.headers);
  headers.set(name, value);
  return new Request(request, { headers });
}

export type KyxClient = ReturnType<typeof createKyxClient>;
