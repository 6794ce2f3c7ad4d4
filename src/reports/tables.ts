export interface BundlesTable {
  id: string;
  account_id: string;
  check_id: string;
  regulator_ref: string;
  /** JSON array of the report types accepted at registration. */
  include_types: string;
  status: 'generating' | 'ready' | 'failed';
  failure_reason: string | null;
  archive_bytes: number | null;
  archive_sha256: string | null;
  created_at: string;
  updated_at: string;
}

/** Finished archives, written once in the transaction that marks their bundle ready. */
export interface BundleArchivesTable {
  bundle_id: string;
  data: Buffer;
}

/**
 * Durable work: a job is claimed with a lease; a worker that dies leaves the lease to run out and any worker
 * takes the job again.
 */
export interface JobsTable {
  id: string;
  kind: string;
  /** JSON. */
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  run_after: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReportTables {
  bundles: BundlesTable;
  bundle_archives: BundleArchivesTable;
  jobs: JobsTable;
}

declare module '../storage/schema.ts' {
  interface Database extends ReportTables {}
}
