export interface EscrowsTable {
  id: string;
  account_id: string;
  status: EscrowStatus;
  /** Minor units of `currency` (cents for USD). */
  amount: number;
  currency: string;
  buyer: string;
  seller: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export const ESCROW_STATUSES = ['open', 'funded', 'released', 'refunded', 'disputed', 'cancelled'] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];

export interface EscrowTables {
  escrows: EscrowsTable;
}

declare module '../storage/schema.ts' {
  interface Database extends EscrowTables {}
}
