import { Type, type Static } from 'typebox';
import { ESCROW_STATUSES } from './tables.ts';

export const EscrowParams = Type.Object({ escrowId: Type.String({ maxLength: 100 }) });
export type EscrowParams = Static<typeof EscrowParams>;

export const EscrowResponse = Type.Object({
  escrowId: Type.String(),
  status: Type.Unsafe<(typeof ESCROW_STATUSES)[number]>({ type: 'string', enum: [...ESCROW_STATUSES] }),
  amount: Type.Integer({ description: 'Minor units of currency' }),
  currency: Type.String({ description: 'ISO 4217' }),
  buyer: Type.String(),
  seller: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
