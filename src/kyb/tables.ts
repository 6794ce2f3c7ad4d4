/** One stored KYB verification; `record` is its public JSON, exactly as GET /api/v1/kyb/checks/{kybId} returns it. */
export interface KybChecksTable {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'live';
  status: 'passed' | 'review' | 'failed';
  created_at: string;
  record: string;
}

export interface KybTables {
  kyb_checks: KybChecksTable;
}

declare module '../storage/schema.ts' {
  interface Database extends KybTables {}
}
