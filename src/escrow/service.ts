// Escrows as the dashboard works them: listed and read within an account, opened by its admins.
import type { Platform } from '../core.ts';
import { DomainError } from '../errors.ts';
import { type Escrow, type NewEscrow, createEscrow, escrowProblems, findEscrow, listEscrows } from './repository.ts';

export type { Escrow };
export type EscrowOpening = Pick<NewEscrow, 'amount' | 'currency' | 'buyer' | 'seller' | 'description'>;

export interface EscrowService {
  list(accountId: string, limit?: number): Promise<Escrow[]>;
  find(accountId: string, escrowId: string): Promise<Escrow | undefined>;
  /** Opens an escrow; throws `invalid_input` naming each field that is wrong. */
  open(accountId: string, input: EscrowOpening): Promise<Escrow>;
}

export function createEscrowService(platform: Platform): EscrowService {
  const { db } = platform.storage;
  return {
    list: (accountId, limit = 200) => listEscrows(db, accountId, limit),
    find: (accountId, escrowId) => findEscrow(db, accountId, escrowId),
    async open(accountId, input) {
      const opening = { accountId, ...input };
      const problems = escrowProblems(opening);
      if (problems.length) throw DomainError.invalid(problems.map((message) => ({ path: `/${message.split(' ')[0]}`, message })));
      return createEscrow(db, opening);
    },
  };
}
