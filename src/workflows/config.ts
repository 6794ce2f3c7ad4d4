// The workflows section of the configuration: how long a worker holds the job of one step.
import type { EnvReader } from '../env.ts';

export interface WorkflowsConfig {
  /** A step may run a KYC check (seconds of image work), so its lease is longer than a bundle's. */
  stepLeaseMs: number;
}

export function workflowsConfig(env: EnvReader): WorkflowsConfig {
  return {
    stepLeaseMs: env.integer('KYX_WORKFLOW_STEP_LEASE_MS', {
      description: 'how long a worker holds a workflow step before another may take it over',
      fallback: 120_000,
    }),
  };
}
