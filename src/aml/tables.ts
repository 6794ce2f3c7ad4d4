export interface AmlScreeningsTable {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'live';
  status: 'clear' | 'potential_match';
  /** The set of list versions screened against (`lv_…`), also inside `record`. */
  lists_version: string;
  created_at: string;
  /** The screening's public JSON, as GET /api/v1/aml/screenings/{id} returns it. */
  record: string;
}

/** A name screened with `monitor: true`: re-screened whenever the lists change, until monitoring stops. */
export interface AmlMonitoredSubjectsTable {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'live';
  /** The screening that enrolled it. */
  screening_id: string;
  /** JSON: the ScreeningQuery. */
  query: string;
  /** JSON: [{entityId, name, list, score}] the subject matches now. */
  matches: string;
  status: 'active' | 'stopped';
  lists_version: string;
  created_at: string;
  updated_at: string;
}

/** What changed for a subject when the lists changed: its history. */
export interface AmlMonitoringAlertsTable {
  id: string;
  subject_id: string;
  account_id: string;
  change: 'new_match' | 'changed_match' | 'removed_match' | 'cleared_match';
  entity_id: string;
  /** JSON: the match as it is now (or was, for a removed entry). */
  detail: string;
  lists_version: string;
  created_at: string;
}

/**
 * One re-screen per change of list versions (`<previous>><next>`, or `start><next>` at start-up), whichever
 * instance swapped it in first.
 */
export interface AmlMonitoringRunsTable {
  run_key: string;
  lists_version: string;
  previous_version: string | null;
  subjects: number;
  alerts: number;
  started_at: string;
  finished_at: string | null;
}

export interface AmlTables {
  aml_screenings: AmlScreeningsTable;
  aml_monitored_subjects: AmlMonitoredSubjectsTable;
  aml_monitoring_alerts: AmlMonitoringAlertsTable;
  aml_monitoring_runs: AmlMonitoringRunsTable;
}

declare module '../storage/schema.ts' {
  interface Database extends AmlTables {}
}
