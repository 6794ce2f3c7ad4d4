// The KYB service behind the HTTP routes: runs a verification against the sandbox or live registers (by the
// caller's key) and stores it with its meter through the check store before answering.
import { embeddedScreening } from '../aml/embedded.ts';
import type { MonitorNames } from '../aml/monitoring.ts';
import type { AmlService } from '../aml/service.ts';
import type { KeyEnvironment } from '../core.ts';
import { type CheckStore, checkEnvironment } from '../storage/checks.ts';
import { verifyBusiness } from './verify.ts';
import type { KybVerifyRequest, KybVerifyResponse } from './schemas.ts';
import type { KybSources, ScreenFunction, ScreeningOutcome } from './types.ts';

export interface KybCaller {
  accountId: string;
  /** The key's environment: test keys only ever reach the sandbox registers. */
  keyEnvironment: KeyEnvironment;
  /** The id to store the check under, for a caller that must find it again after a crash (a workflow step). */
  checkId?: string;
}

export interface KybServiceOptions {
  checks: CheckStore;
  sandboxSources: KybSources;
  liveSources: KybSources;
  screen: ScreenFunction;
  budgetMs: number;
  /** Enrols the screened parties in ongoing monitoring when the account enabled it. */
  monitorNames: MonitorNames;
}

export interface KybService {
  /** Throws KybRequestInvalidError (with field issues) for a request the engine refuses before calling any register. */
  verify(caller: KybCaller, request: KybVerifyRequest): Promise<KybVerifyResponse>;
}

export function createKybService(options: KybServiceOptions): KybService {
  const { checks } = options;
  return {
    async verify(caller, request) {
      const environment = checkEnvironment(caller.keyEnvironment);
      const result = await verifyBusiness(request, {
        sources: environment === 'live' ? options.liveSources : options.sandboxSources,
        screen: options.screen,
        budgetMs: options.budgetMs,
      });
      const kybId = caller.checkId ?? checks.newId('kyb');
      const record: KybVerifyResponse = {
        kybId,
        ...result,
        request,
        reportUrl: checks.reportUrl('kyb', kybId),
        completedAt: new Date().toISOString(),
        environment,
      };
      await checks.transaction(async (trx) => {
        await checks.insert(trx, 'kyb', { id: kybId, accountId: caller.accountId, environment, createdAt: record.completedAt, record, columns: { status: record.status } });
        const screened = record.parties.filter((party) => party.screening.status !== 'unavailable');
        await options.monitorNames(
          trx,
          { accountId: caller.accountId, environment, checkId: kybId, now: new Date(record.completedAt) },
          screened.map((party) => ({ query: { name: party.name, type: party.type }, matches: party.screening.matches })),
        );
      });
      return record;
    },
  };
}

/**
 * The screening KYB uses: the AML service, in-process. No list loaded means `unavailable`, which the decision
 * turns into `review`: a party that could not be screened never passes.
 */
export function kybScreenFunction(aml: AmlService): ScreenFunction {
  return async (subject): Promise<ScreeningOutcome> => {
    const result =
      subject.type === 'organization'
        ? await aml.screenCompany({ name: subject.name, country: subject.country })
        : await aml.screenPerson({ name: subject.name, dateOfBirth: subject.dateOfBirth, country: subject.country });
    return embeddedScreening(result);
  };
}
