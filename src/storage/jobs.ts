// The durable job queue any module uses (the `jobs` table, declared by reports): a job is claimed with a lease,
// and each worker claims only the kinds it handles.
import os from 'node:os';
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Platform } from '../core.ts';
import type { Database } from './schema.ts';
import type { Storage } from './database.ts';
import { newId, randomBase62 } from '../ids.ts';

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
}

export const MAX_ATTEMPTS = 3;

export async function enqueueJob(db: Kysely<Database>, kind: string, payload: unknown, now: Date): Promise<string> {
  const id = newId('job');
  await db
    .insertInto('jobs')
    .values({
      id,
      kind,
      payload: JSON.stringify(payload),
      status: 'queued',
      attempts: 0,
      locked_by: null,
      locked_until: null,
      run_after: now.toISOString(),
      last_error: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  return id;
}

/**
 * Takes the oldest job of one of `kinds` that is due, or whose lease ran out (its worker died), and leases it to
 * `workerId`.
 * On Postgres `FOR UPDATE SKIP LOCKED` lets any number of instances claim side by side without ever handing
 * the same job to two; SQLite has a single writer, so the one statement is atomic there.
 */
export async function claimJob(storage: Storage, kinds: readonly string[], workerId: string, leaseMs: number, now: Date): Promise<ClaimedJob | undefined> {
  const at = now.toISOString();
  const due = storage.db
    .selectFrom('jobs')
    .select('id')
    .where('kind', 'in', kinds)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', at)]),
        eb.and([eb('status', '=', 'running'), eb('locked_until', '<', at)]),
      ]),
    )
    .orderBy('created_at')
    .limit(1)
    .$if(storage.dialect === 'postgres', (query) => query.forUpdate().skipLocked());
  const row = await storage.db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      locked_by: workerId,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: eb('attempts', '+', 1),
      updated_at: at,
    }))
    .where('id', '=', due)
    .returningAll()
    .executeTakeFirst();
  return row && { id: row.id, kind: row.kind, payload: JSON.parse(row.payload), attempts: Number(row.attempts) };
}

/** Marks the job done if this worker still holds it; false means the lease was lost and the work must not land. */
export async function completeJob(db: Kysely<Database>, job: ClaimedJob, workerId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'done', locked_by: null, locked_until: null, updated_at: now.toISOString() })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Lands `work` and marks the job done in one transaction, only while this worker still holds it: a worker whose
 * lease ran out cannot overwrite or duplicate the work of the next one. False when the lease was lost.
 */
export function completeJobWith(
  db: Kysely<Database>,
  job: ClaimedJob,
  workerId: string,
  work: (trx: Kysely<Database>, now: Date) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    if (!(await completeJob(trx, job, workerId, now))) return false;
    await work(trx, now);
    return true;
  });
}

/** Gives the job back for a later attempt with exponential back-off, or fails it for good after MAX_ATTEMPTS. */
export async function releaseFailedJob(db: Kysely<Database>, job: ClaimedJob, workerId: string, error: string, now: Date): Promise<'retry' | 'failed'> {
  const final = job.attempts >= MAX_ATTEMPTS;
  await db
    .updateTable('jobs')
    .set({
      status: final ? 'failed' : 'queued',
      locked_by: null,
      locked_until: null,
      run_after: new Date(now.getTime() + 1000 * 2 ** job.attempts).toISOString(),
      last_error: error.slice(0, 2000),
      updated_at: now.toISOString(),
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .execute();
  return final ? 'failed' : 'retry';
}

export type JobHandler = (job: ClaimedJob, workerId: string) => Promise<void>;

export interface Worker {
  id: string;
  /** Look for work now instead of at the next poll. */
  kick(): void;
  /** Stops polling and waits for the job in hand. */
  stop(): Promise<void>;
}

export function startWorker(options: {
  storage: Storage;
  /** The job kinds this worker handles. */
  kinds: readonly string[];
  handle: JobHandler;
  leaseMs: number;
  pollMs: number;
  onError?: (error: unknown) => void;
}): Worker {
  const id = `${os.hostname()}:${process.pid}:${randomBase62(6)}`;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;

  const drain = async () => {
    while (!stopped) {
      const job = await claimJob(options.storage, options.kinds, id, options.leaseMs, new Date());
      if (!job) return;
      await options.handle(job, id);
    }
  };
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error) => options.onError?.(error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, options.pollMs);
  timer.unref();
  tick();
  return {
    id,
    kick: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * This instance's worker for `kinds`, polling as configured, unless KYX_WORKER is off (then undefined: another
 * instance takes the jobs); it stops when the platform closes.
 */
export function startPlatformWorker(platform: Platform, options: { kinds: readonly string[]; leaseMs: number; handle: JobHandler }): Worker | undefined {
  const { config, storage } = platform;
  if (!config.reports.runWorker) return undefined;
  const worker = startWorker({ storage, pollMs: config.reports.workerPollMs, ...options });
  platform.closers.push(() => worker.stop());
  return worker;
}

/** Queue depth by kind and state, and how long the oldest waiting job of each kind has waited, read at scrape time. */
export function registerJobMetrics(db: Kysely<Database>, registry: Registry): void {
  const jobs = async () =>
    db
      .selectFrom('jobs')
      .select((eb) => ['kind', 'status', eb.fn.countAll<string | number>().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('status', 'in', ['queued', 'running'])
      .groupBy(['kind', 'status'])
      .execute();
  new Gauge({
    name: 'kyx_jobs',
    help: 'Jobs queued or running, by kind',
    labelNames: ['kind', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await jobs()) this.set({ kind: row.kind, status: row.status }, Number(row.count));
    },
  });
  new Gauge({
    name: 'kyx_job_oldest_age_seconds',
    help: 'Age of the oldest job not done, by kind',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      const oldest = new Map<string, number>();
      for (const row of await jobs()) oldest.set(row.kind, Math.min(oldest.get(row.kind) ?? Infinity, Date.parse(String(row.oldest))));
      for (const [kind, createdAt] of oldest) this.set({ kind }, (Date.now() - createdAt) / 1000);
    },
  });
}
