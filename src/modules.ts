import type { FastifyInstance } from 'fastify';
import type { Migration } from 'kysely';
import type { AppContext } from './context.ts';
import type { Dialect } from './storage/database.ts';

/**
 * A domain (accounts, aml, kyc, …) plugs into the service through one object: its migrations, the services it
 * puts on the context, and its routes. `src/domains.ts` lists them in order.
 */
export interface DomainModule {
  name: string;
  /** Names start with the module's order number (001_, 010_, …) so they sort into the order they must run. */
  migrations?(dialect: Dialect): Record<string, Migration>;
  /** Creates the module's services on `context.services`; registers readiness checks, closers and check finders. */
  setup?(context: AppContext): Promise<void>;
  routes?(app: FastifyInstance, context: AppContext): Promise<void>;
  /** Slow one-time preparation (fonts, models) that a server does after it listens; tests skip it. */
  warmUp?(context: AppContext): Promise<void>;
}

/** A stored check of any kind, as reports and evidence bundles see it. */
export interface StoredCheck {
  id: string;
  kind: CheckKind;
  accountId: string;
  environment: 'sandbox' | 'live';
  createdAt: string;
  /** The check's public JSON, exactly as its GET route returns it. */
  record: Record<string, unknown>;
}

export type CheckKind = 'kyc' | 'kyb' | 'aml' | 'kya';

/** Id prefix → kind: `chk_` is a KYC check, the others are named after their kind. */
export const CHECK_PREFIXES: Record<string, CheckKind> = { chk: 'kyc', kyb: 'kyb', aml: 'aml', kya: 'kya' };

/** Finds a check of one kind for one tenant (never another tenant's). */
export type CheckFinder = (accountId: string, id: string) => Promise<StoredCheck | undefined>;

export function checkKindOf(id: string): CheckKind | undefined {
  return CHECK_PREFIXES[id.split('_')[0]];
}
