// The reports section of the configuration: the job worker that builds evidence bundles.
import type { EnvReader } from '../env.ts';

export interface ReportsConfig {
  /** Whether this instance runs the job worker. */
  runWorker: boolean;
  workerPollMs: number;
  /** How long a claimed job stays leased; a worker that dies mid-job is replaced after this. */
  jobLeaseMs: number;
}

export function reportsConfig(env: EnvReader): ReportsConfig {
  return {
    runWorker: env.flag('KYX_WORKER', { description: 'run the job worker (evidence bundles) in this instance', fallback: true }),
    workerPollMs: env.integer('KYX_WORKER_POLL_MS', { description: 'how often the worker looks for jobs other instances queued', fallback: 500 }),
    jobLeaseMs: env.integer('KYX_JOB_LEASE_MS', { description: 'how long a claimed job stays leased before another worker may take it', fallback: 30_000 }),
  };
}
