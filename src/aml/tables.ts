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

export interface AmlTables {
  aml_screenings: AmlScreeningsTable;
}

declare module '../storage/schema.ts' {
  interface Database extends AmlTables {}
}
