// The KYB service behind the HTTP routes: runs a verification against the sandbox or live registers (by the
// caller's key), stores it with its meter in one transaction, and finds stored checks for one tenant only.
import { embeddedScreening } from '../aml/embedded.ts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { AmlService } from '../aml/service.ts';
import type { Meters } from '../accounts/usage.ts';
import type { Database } from '../storage/schema.ts';
import type { StoredCheck } from '../modules.ts';
import { newId } from '../ids.ts';
import { findStoredCheck } from '../storage/checks.ts';
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

    find: (accountId, kybId) => findStoredCheck(db, 'kyb', accountId, kybId),
  };
}

/**
 * The screening KYB uses: the AML service, in-process, looked up at call time (domains are set up in any order).
 * No AML service, or no list loaded, means `unavailable`, which the decision turns into `review`: a party that
 * could not be screened never passes.
 */
export function kybScreenFunction(context: AppContext): ScreenFunction {
  return async (subject): Promise<ScreeningOutcome> => {
    const aml: AmlService | undefined = context.services.aml;
    if (!aml) return { status: 'unavailable', matches: [] };
    const result =
      subject.type === 'organization'
        ? await aml.screenCompany({ name: subject.name, country: subject.country })
        : await aml.screenPerson({ name: subject.name, dateOfBirth: subject.dateOfBirth, country: subject.country });
    return embeddedScreening(result);
  };
}
