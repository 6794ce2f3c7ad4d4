// The KYB service behind the HTTP routes: runs a verification against the sandbox or live registers (by the
// caller's key), stores it with its meter in one transaction, and finds stored checks for one tenant only.
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import { type ListRegistry, createListRegistry } from '../aml/registry.ts';
import type { Meters } from '../accounts/usage.ts';
import type { Database } from '../storage/schema.ts';
import type { StoredCheck } from '../modules.ts';
import { newId } from '../ids.ts';
import { ListsUnavailableError, screenCompany, screenPerson, type ListsSnapshot, type SnapshotProvider } from '../aml/screen.ts';
import { verifyBusiness } from './verify.ts';
import type { KybVerifyRequest, KybVerifyResponse } from './schemas.ts';
import type { KybSources, ScreenFunction, ScreeningOutcome } from './types.ts';

export interface KybCaller {
  accountId: string;
  /** The key's environment: test keys only ever reach the sandbox registers. */
  keyEnvironment: 'test' | 'live';
}

export interface KybServiceOptions {
  db: Kysely<Database>;
  meters: Meters;
  /** Public base URL, for reportUrl. */
  baseUrl: string;
  sandboxSources: KybSources;
  liveSources: KybSources;
  screen: ScreenFunction;
  budgetMs: number;
}

export interface KybService {
  /** Throws KybRequestInvalidError (with field errors) for a request the engine refuses before calling any register. */
  verify(caller: KybCaller, request: KybVerifyRequest): Promise<KybVerifyResponse>;
  find(accountId: string, kybId: string): Promise<StoredCheck | undefined>;
}

export function createKybService(options: KybServiceOptions): KybService {
  const { db, meters } = options;
  return {
    async verify(caller, request) {
      const environment = caller.keyEnvironment === 'live' ? 'live' : 'sandbox';
      const result = await verifyBusiness(request, {
        sources: environment === 'live' ? options.liveSources : options.sandboxSources,
        screen: options.screen,
        budgetMs: options.budgetMs,
      });
      const kybId = newId('kyb');
      const completed = new Date();
      const record: KybVerifyResponse = {
        kybId,
        ...result,
        request,
        reportUrl: `${options.baseUrl}/reports/RPT-002/${kybId}.pdf`,
        completedAt: completed.toISOString(),
        environment,
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('kyb_checks')
          .values({
            id: kybId,
            account_id: caller.accountId,
            environment,
            status: record.status,
            created_at: record.completedAt,
            record: JSON.stringify(record),
          })
          .execute();
        if (environment === 'live') await meters.record(trx, caller.accountId, 'kybChecks', completed);
      });
      return record;
    },

    async find(accountId, kybId) {
      const row = await db
        .selectFrom('kyb_checks')
        .selectAll()
        .where('id', '=', kybId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: row.id,
        kind: 'kyb',
        accountId: row.account_id,
        environment: row.environment,
        createdAt: row.created_at,
        record: JSON.parse(row.record) as Record<string, unknown>,
      };
    },
  };
}

/** The sanctions lists to screen against at the moment of the call; null while none is loaded. */
export type ListsLookup = () => SnapshotProvider | ListsSnapshot | null;

/**
 * Screens KYB parties in-process with the AML engine. No lists loaded means `unavailable`, which the decision
 * turns into `review`: a party that could not be screened never passes.
 */
export function screenAgainstLists(lists: ListsLookup): ScreenFunction {
  return async (subject): Promise<ScreeningOutcome> => {
    try {
      const result =
        subject.type === 'organization'
          ? screenCompany(lists(), { name: subject.name, country: subject.country })
          : screenPerson(lists(), { name: subject.name, dateOfBirth: subject.dateOfBirth, country: subject.country });
      return {
        status: result.status,
        matches: result.matches.map(({ entityId, name, matchedName, score, lists: listNames, programs }) => ({
          entityId,
          name,
          matchedName,
          score,
          lists: listNames,
          programs,
        })),
      };
    } catch (error) {
      if (error instanceof ListsUnavailableError) return { status: 'unavailable', matches: [] };
      throw error;
    }
  };
}

/**
 * The screening KYB uses. The AML domain does not yet put a service on the context, so KYB screens in-process
 * against the lists in KYX_LISTS_DIR, read on first use (kept under <dataDir>/kyb, apart from the AML domain's
 * copies). Without KYX_LISTS_DIR, or while the lists cannot be read, every party is `unavailable` → review.
 */
export function kybScreenFunction(context: AppContext): ScreenFunction {
  const { listsDir, dataDir } = context.config;
  if (!listsDir) return screenAgainstLists(() => null);
  let registry: ListRegistry | undefined;
  let loaded: Promise<unknown> = Promise.resolve();
  context.closers.push(async () => registry?.close());
  const screen = screenAgainstLists(() => registry?.snapshot() ?? null);
  return async (subject) => {
    if (!registry) {
      registry = createListRegistry({ listsDir, dataDir: join(dataDir, 'kyb') });
      loaded = registry.load().catch(() => undefined);
    }
    await loaded;
    return screen(subject);
  };
}
