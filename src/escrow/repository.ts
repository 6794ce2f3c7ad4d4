import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { newId } from '../ids.ts';
import { ESCROW_STATUSES, type EscrowStatus, type EscrowsTable } from './tables.ts';

export interface Escrow {
  escrowId: string;
  status: EscrowStatus;
  amount: number;
  currency: string;
  buyer: string;
  seller: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewEscrow {
  escrowId?: string;
  accountId: string;
  amount: number;
  currency: string;
  buyer: string;
  seller: string;
  description?: string | null;
  status?: EscrowStatus;
  createdAt?: string;
  updatedAt?: string;
}

function toEscrow(row: EscrowsTable): Escrow {
  return {
    escrowId: row.id,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    buyer: row.buyer,
    seller: row.seller,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Field problems of an escrow as the operator's tools give it (CLI create and import). */
export function escrowProblems(input: Partial<Record<keyof NewEscrow, unknown>>): string[] {
  const problems: string[] = [];
  const text = (name: keyof NewEscrow, max = 200) => {
    const value = input[name];
    if (typeof value !== 'string' || value.trim() === '' || value.length > max) problems.push(`${name} must be a non-empty string of at most ${max} characters`);
  };
  if (input.escrowId !== undefined && (typeof input.escrowId !== 'string' || !/^esc_[0-9A-Za-z]{8,64}$/.test(input.escrowId))) {
    problems.push('escrowId must look like esc_ followed by 8–64 letters or digits');
  }
  text('accountId');
  if (!Number.isSafeInteger(input.amount) || (input.amount as number) <= 0) problems.push('amount must be a positive integer in minor units');
  if (typeof input.currency !== 'string' || !/^[A-Z]{3}$/.test(input.currency)) problems.push('currency must be an ISO 4217 code such as USD');
  text('buyer');
  text('seller');
  if (input.description !== undefined && input.description !== null && (typeof input.description !== 'string' || input.description.length > 2000)) {
    problems.push('description must be a string of at most 2000 characters');
  }
  if (input.status !== undefined && !(ESCROW_STATUSES as readonly unknown[]).includes(input.status)) {
    problems.push(`status must be one of ${ESCROW_STATUSES.join(', ')}`);
  }
  for (const name of ['createdAt', 'updatedAt'] as const) {
    const value = input[name];
    if (value !== undefined && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) problems.push(`${name} must be an ISO 8601 timestamp`);
  }
  return problems;
}

export async function createEscrow(db: Kysely<Database>, input: NewEscrow, now = new Date()): Promise<Escrow> {
  const createdAt = input.createdAt ? new Date(input.createdAt).toISOString() : now.toISOString();
  const row: EscrowsTable = {
    id: input.escrowId ?? newId('esc'),
    account_id: input.accountId,
    status: input.status ?? 'open',
    amount: input.amount,
    currency: input.currency,
    buyer: input.buyer,
    seller: input.seller,
    description: input.description ?? null,
    created_at: createdAt,
    updated_at: input.updatedAt ? new Date(input.updatedAt).toISOString() : createdAt,
  };
  await db.insertInto('escrows').values(row).execute();
  return toEscrow(row);
}

export async function findEscrow(db: Kysely<Database>, accountId: string, escrowId: string): Promise<Escrow | undefined> {
  const row = await db.selectFrom('escrows').selectAll().where('id', '=', escrowId).where('account_id', '=', accountId).executeTakeFirst();
  return row && toEscrow(row);
}

/** The account's escrows, newest first. */
export async function listEscrows(db: Kysely<Database>, accountId: string, limit: number): Promise<Escrow[]> {
  const rows = await db.selectFrom('escrows').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toEscrow);
}
