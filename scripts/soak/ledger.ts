// What the soak's client saw: every answer by status, the records it was promised, and for each account the
// month count each admitted answer reported. An admission moves the counter by one, atomically, so the admitted
// answers of an account must carry distinct counts; the counts nobody saw are requests admitted but cut by a
// kill, and there can be no more of those than cut requests.
import { cutByKill } from './cluster.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
  /** The connection to the instance was cut by a kill (proxy answer or dropped connection). */
  cut: boolean;
}

export interface StoredRecord {
  kind: string;
  id: string;
  path: string;
  key: string;
}

interface AccountTally {
  counts: number[];
  cut: number;
}

/**
 * A test key's prompt is screened by no model (rule 11), so one that no blocking signature matches is answered
 * 503 not_screened: the contract's answer, not a fault. The fuzzer, which calls with a test key, meets it by chance.
 */
function sandboxNotScreened(key: string, answer: Pick<Answer, 'status' | 'text'>): boolean {
  return key.startsWith('svc_test_sk_') && answer.status === 503 && answer.text.includes('"code":"not_screened"');
}

export class Ledger {
  requests = 0;
  byStatus = new Map<number, number>();
  cut = 0;
  violations: string[] = [];
  records: StoredRecord[] = [];
  private accounts = new Map<string, AccountTally>();
  private accountOfKey = new Map<string, string>();
  private nextId = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly cutIds: Set<string>,
  ) {}

  registerKey(key: string, accountId: string): void {
    this.accountOfKey.set(key, accountId);
    if (!this.accounts.has(accountId)) this.accounts.set(accountId, { counts: [], cut: 0 });
  }

  tally(accountId: string): AccountTally | undefined {
    return this.accounts.get(accountId);
  }

  violation(message: string): void {
    if (this.violations.length < 200) this.violations.push(message);
  }

  /** One request through the proxy, accounted for. */
  async call(method: string, path: string, key: string, body?: unknown, raw?: string): Promise<Answer> {
    const soakId = String(++this.nextId);
    this.requests++;
    const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    let answer: Answer;
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'x-soak-id': soakId, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        body: payload,
        signal: AbortSignal.timeout(120_000),
      });
      const text = await response.text();
      answer = { status: response.status, headers: response.headers, text, json: () => JSON.parse(text), cut: cutByKill(response.headers) };
    } catch (error) {
      if (!this.cutIds.has(soakId)) this.violation(`${method} ${path}: ${(error as Error).message} without a kill`);
      answer = { status: 0, headers: new Headers(), text: '', json: () => ({}), cut: true };
    }
    this.account(method, path, key, answer);
    return answer;
  }

  /** Accounts for an answer, also one obtained straight from an instance rather than through the proxy. */
  account(method: string, path: string, key: string, answer: Pick<Answer, 'status' | 'headers' | 'text' | 'cut'>): void {
    const account = this.accounts.get(this.accountOfKey.get(key) ?? '');
    this.byStatus.set(answer.status, (this.byStatus.get(answer.status) ?? 0) + 1);
    if (answer.cut) {
      this.cut++;
      if (account) account.cut++;
      return;
    }
    if (answer.status >= 500 && !sandboxNotScreened(key, answer)) this.violation(`${method} ${path} → ${answer.status} ${answer.text.slice(0, 300)}`);
    const remaining = answer.headers.get('x-quota-remaining');
    const limit = answer.headers.get('x-quota-limit');
    const admitted = path.startsWith('/api/v1/') && remaining !== null && limit !== null && answer.status !== 429;
    if (admitted && account) account.counts.push(Number(limit) - Number(remaining));
  }

  remember(record: StoredRecord): void {
    this.records.push(record);
  }

  /**
   * Compares an account's stored day and month counters with what its admitted answers reported; returns the
   * drift (0 when exact) and says why otherwise.
   */
  counterDrift(accountId: string, stored: { day: number; month: number }): number {
    const tally = this.accounts.get(accountId) ?? { counts: [], cut: 0 };
    const seen = new Set(tally.counts);
    const duplicates = tally.counts.length - seen.size;
    const highest = Math.max(0, ...tally.counts);
    const unseen = stored.month - seen.size;
    let drift = duplicates + Math.max(0, highest - stored.month) + Math.max(0, -unseen) + Math.max(0, unseen - tally.cut);
    drift += Math.abs(stored.day - stored.month);
    if (drift) {
      this.violation(
        `account ${accountId}: stored day ${stored.day}, month ${stored.month}; ${tally.counts.length} admitted answers ` +
          `(${duplicates} repeated counts, highest ${highest}), ${tally.cut} cut by kills`,
      );
    }
    return drift;
  }
}
