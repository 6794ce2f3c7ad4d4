/** One published version of a tenant's named workflow; never updated. */
export interface WorkflowDefinitionsTable {
  account_id: string;
  name: string;
  version: number;
  /** JSON: the WorkflowDefinition. */
  definition: string;
  created_at: string;
}

export type RunStatus = 'running' | 'completed' | 'review' | 'failed';

export interface WorkflowRunsTable {
  id: string;
  account_id: string;
  /** The caller's key environment: a test key's run makes sandbox checks, as the key would directly. */
  key_environment: 'test' | 'live';
  workflow: string;
  version: number;
  /** JSON: the definition the run started on, so it finishes on that version. */
  definition: string;
  /** JSON; emptied when the run ends, so the images and prompts it may hold are not kept twice. */
  input: string;
  /** JSON: RunState. */
  state: string;
  status: RunStatus;
  decision: string | null;
  created_at: string;
  completed_at: string | null;
  /** While a manual_review step waits: the check whose decision resumes the run. */
  awaiting_check: string | null;
}

/** The link from a check a run created back to the run and step. */
export interface WorkflowRunChecksTable {
  check_id: string;
  run_id: string;
  step_id: string;
  account_id: string;
}

export interface WorkflowTables {
  workflow_definitions: WorkflowDefinitionsTable;
  workflow_runs: WorkflowRunsTable;
  workflow_run_checks: WorkflowRunChecksTable;
}

declare module '../storage/schema.ts' {
  interface Database extends WorkflowTables {}
}
