// verifyBusiness: ask every register that applies in parallel, screen the company, its officers and owners, and
// decide. Everything slow is bounded by the time budget; a register that fails becomes a `review` check.
import anyAscii from 'any-ascii';
import {
  amlCheck,
  decide,
  leiCheck,
  noSourceCheck,
  registryCheck,
  regulatorCheck,
  skippedCheck,
  taxCheck,
} from './checks.ts';
import type {
  Clock,
  KybCheck,
  KybCompany,
  KybParty,
  KybRequest,
  KybResult,
  KybSource,
  KybSourceReport,
  KybSources,
  LeiRecord,
  RegistryRecord,
  RegulatorRecord,
  ScreenFunction,
  ScreeningOutcome,
  ScreeningSubject,
  SourceAnswer,
  VatRecord,
} from './types.ts';
import { DomainError, type FieldIssue } from '../errors.ts';
import { validateKybRequest, type NormalisedKybRequest } from './validation.ts';

export interface VerifyBusinessOptions {
  sources: KybSources;
  screen: ScreenFunction;
  clock?: Clock;
  /** Whole verification, registers and screening included. */
  budgetMs: number;
}

/** A request refused before any register is called; `issues` name the fields. */
export class KybRequestInvalidError extends DomainError {
  constructor(issues: FieldIssue[]) {
    super('invalid_input', 'The request is invalid', { issues });
    this.name = 'KybRequestInvalidError';
  }
}

/** Share of the budget the registers may use; the rest is kept for screening officers the registry names. */
const SOURCE_SHARE = 0.8;

const systemClock: Clock = { now: () => Date.now() };

function withDeadline<T>(work: Promise<T>, deadline: number, clock: Clock, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), Math.max(0, deadline - clock.now()));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function ask<Q, R>(
  source: KybSource<Q, R>,
  query: Q,
  deadline: number,
  clock: Clock,
): Promise<SourceAnswer<R>> {
  const unavailable = (reason: string): SourceAnswer<R> => ({
    outcome: 'unavailable',
    reason,
    retrievedAt: new Date(clock.now()).toISOString(),
    summary: {},
  });
  // Adapters keep to the deadline themselves; the race is the guarantee for any adapter that does not.
  const answer = source.lookup(query, { deadline, clock }).catch(() => unavailable('source_error'));
  return withDeadline(answer, deadline, clock, () => unavailable('timeout'));
}

const personKey = (name: string) =>
  anyAscii(name).toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(' ').sort().join(' ');

interface PartyDraft extends Omit<KybParty, 'screening'> {
  dateOfBirth?: string;
}

/** Parties named in the request and by the registry, merged by name so each is screened once. */
export function collectParties(request: NormalisedKybRequest, registry?: RegistryRecord): PartyDraft[] {
  const parties = new Map<string, PartyDraft>();
  const add = (draft: PartyDraft) => {
    const key = `${draft.role}:${draft.type}:${personKey(draft.name)}`;
    const known = parties.get(key);
    if (!known) return void parties.set(key, draft);
    known.from = [...new Set([...known.from, ...draft.from])];
    known.dateOfBirth ??= draft.dateOfBirth;
    known.ownershipPercent ??= draft.ownershipPercent;
    known.position ??= draft.position;
  };
  add({ name: request.companyName, type: 'organization', role: 'company', from: ['request'] });
  if (registry) add({ name: registry.name, type: 'organization', role: 'company', from: ['registry'] });
  for (const officer of request.officers) {
    add({ name: officer.name, type: 'person', role: 'officer', position: officer.role, dateOfBirth: officer.dateOfBirth, from: ['request'] });
  }
  for (const officer of registry?.officers ?? []) {
    add({ name: officer.name, type: 'person', role: 'officer', position: officer.role, from: ['registry'] });
  }
  for (const owner of request.owners) {
    add({ name: owner.name, type: 'person', role: 'owner', ownershipPercent: owner.ownershipPercent, dateOfBirth: owner.dateOfBirth, from: ['request'] });
  }
  for (const owner of registry?.owners ?? []) {
    add({
      name: owner.name,
      type: owner.kind,
      role: 'owner',
      position: owner.naturesOfControl.join(', ') || undefined,
      ownershipPercent: owner.ownershipPercentAtLeast,
      from: ['registry'],
    });
  }
  return [...parties.values()];
}

function assembleCompany(
  request: NormalisedKybRequest,
  registry?: RegistryRecord,
  vat?: VatRecord,
  lei?: LeiRecord,
  regulator?: RegulatorRecord,
): KybCompany {
  return {
    name: registry?.name ?? lei?.legalName ?? regulator?.name ?? vat?.name ?? request.companyName,
    country: request.country,
    registrationNumber: registry?.companyNumber || request.registrationNumber,
    ...(registry
      ? {
          status: registry.status,
          type: registry.type,
          incorporatedOn: registry.incorporatedOn,
          jurisdiction: registry.jurisdiction,
          sicCodes: registry.sicCodes,
        }
      : {}),
    registeredAddress: registry?.address ?? lei?.legalAddress,
    ...(vat
      ? { vat: { number: `${vat.countryCode}${vat.vatNumber}`, valid: vat.valid, name: vat.name, address: vat.address } }
      : {}),
    ...(lei
      ? {
          lei: {
            code: lei.lei,
            legalName: lei.legalName,
            registrationStatus: lei.registrationStatus,
            entityStatus: lei.entityStatus,
            nextRenewalDate: lei.nextRenewalDate,
          },
        }
      : {}),
    ...(regulator
      ? {
          regulator: {
            id: regulator.firmReference,
            name: regulator.name,
            status: regulator.status,
            statusEffectiveDate: regulator.statusEffectiveDate,
          },
        }
      : {}),
    officers: registry?.officers ?? [],
    owners: registry?.owners ?? [],
  };
}

const recordOf = <R>(answer?: SourceAnswer<R>): R | undefined => (answer?.outcome === 'found' ? answer.record : undefined);

export async function verifyBusiness(input: KybRequest, options: VerifyBusinessOptions): Promise<KybResult> {
  const validated = validateKybRequest(input);
  if ('errors' in validated) throw new KybRequestInvalidError(validated.errors);
  const request = validated.request;
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const deadline = started + options.budgetMs;
  const sourceDeadline = started + Math.floor(options.budgetMs * SOURCE_SHARE);
  const { sources } = options;

  const screenings = new Map<string, Promise<ScreeningOutcome>>();
  const screenOnce = (subject: ScreeningSubject): Promise<ScreeningOutcome> => {
    const key = `${subject.type}:${personKey(subject.name)}:${subject.dateOfBirth ?? ''}`;
    let pending = screenings.get(key);
    if (!pending) {
      const unavailable = (): ScreeningOutcome => ({ status: 'unavailable', matches: [] });
      pending = withDeadline(options.screen(subject).catch(unavailable), deadline, clock, unavailable);
      screenings.set(key, pending);
    }
    return pending;
  };
  const subjectOf = (party: PartyDraft): ScreeningSubject => ({
    name: party.name,
    type: party.type,
    ...(party.dateOfBirth ? { dateOfBirth: party.dateOfBirth } : {}),
    ...(party.role === 'company' ? { country: request.country } : {}),
  });
  // Parties the request names are screened while the registers are asked.
  for (const party of collectParties(request)) void screenOnce(subjectOf(party));

  const registrySource = sources.registries[request.country];
  const taxSource = request.vat ? sources.taxAuthorities[request.vat.prefix] : undefined;
  const regulatorSource = request.regulatorId ? sources.regulators[request.country] : undefined;
  const leiSource = request.lei ? sources.lei : undefined;
  const [registryAnswer, taxAnswer, regulatorAnswer, leiAnswer] = await Promise.all([
    registrySource && ask(registrySource, { companyNumber: request.registrationNumber }, sourceDeadline, clock),
    taxSource && ask(taxSource, { countryCode: request.vat!.prefix, vatNumber: request.vat!.number }, sourceDeadline, clock),
    regulatorSource && ask(regulatorSource, { firmReference: request.regulatorId! }, sourceDeadline, clock),
    leiSource && ask(leiSource, { lei: request.lei! }, sourceDeadline, clock),
  ]);

  const registry = recordOf(registryAnswer);
  const companyName = registry?.name ?? request.companyName;
  const drafts = collectParties(request, registry);
  const parties: KybParty[] = await Promise.all(
    drafts.map(async (draft) => {
      const { dateOfBirth, ...party } = draft;
      return { ...party, screening: await screenOnce(subjectOf(draft)) };
    }),
  );

  const checks: KybCheck[] = [
    registrySource && registryAnswer
      ? registryCheck(request, registryAnswer, registrySource.name)
      : noSourceCheck('registry', `no company registry is configured for ${request.country}`),
    !request.vat
      ? skippedCheck('tax', 'no VAT number given')
      : taxSource && taxAnswer
        ? taxCheck(request, taxAnswer, taxSource.name, companyName)
        : noSourceCheck('tax', `no tax authority is configured for VAT numbers prefixed ${request.vat.prefix}`),
    !request.regulatorId
      ? skippedCheck('regulator', 'no regulator reference given')
      : regulatorSource && regulatorAnswer
        ? regulatorCheck(request, regulatorAnswer, regulatorSource.name, companyName)
        : noSourceCheck('regulator', `no financial regulator register is configured for ${request.country}`),
    !request.lei
      ? skippedCheck('lei', 'no LEI given')
      : leiSource && leiAnswer
        ? leiCheck(request, leiAnswer, leiSource.name, companyName)
        : noSourceCheck('lei', 'no LEI register is configured'),
    amlCheck(parties),
  ];

  const reports: KybSourceReport[] = (
    [
      [registrySource, registryAnswer],
      [taxSource, taxAnswer],
      [regulatorSource, regulatorAnswer],
      [leiSource, leiAnswer],
    ] as Array<[KybSource<unknown, unknown> | undefined, SourceAnswer<unknown> | undefined]>
  ).flatMap(([source, answer]) =>
    source && answer
      ? [
          {
            name: source.name,
            retrievedAt: answer.retrievedAt,
            status: answer.outcome,
            ...(answer.outcome === 'found' ? {} : { reason: answer.reason }),
            summary: answer.summary,
          },
        ]
      : [],
  );

  return {
    ...decide(checks),
    checks,
    company: assembleCompany(request, registry, recordOf(taxAnswer), recordOf(leiAnswer), recordOf(regulatorAnswer)),
    parties,
    sources: reports,
  };
}
