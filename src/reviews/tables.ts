/**
 * One row per decided check: the primary key makes the decision happen once. The check store reads it to show
 * the decision beside the check's automated outcome.
 */
export interface CheckReviewsTable {
  check_id: string;
  account_id: string;
  decided_at: string;
  /** JSON: the CheckReview. */
  review: string;
}

export interface ReviewTables {
  check_reviews: CheckReviewsTable;
}

declare module '../storage/schema.ts' {
  interface Database extends ReviewTables {}
}
