// The KYB engine's data shapes: the request as the API receives it, what each public register answers (mapped out
// of its own envelope), and the decision.

export interface KybOfficerInput {
  name: string;
  dateOfBirth?: string;
  role: string;
}

export interface KybOwnerInput {
  name: string;
  dateOfBirth?: string;
  ownershipPercent: number;
}

export interface KybRequest {
  companyName: string;
  country: string;
  registrationNumber: string;
  vatNumber?: string;
  lei?: string;
  regulatorId?: string;
  officers?: KybOfficerInput[];
  owners?: KybOwnerInput[];
}

// ---------------------------------------------------------------------------------------------------------------
// Sources

export type KybSourceName = 'companies_house' | 'gleif' | 'vies' | 'fca';

/** Milliseconds since the epoch, from the injected clock (tests and sandbox control time). */
export interface Clock {
  now(): number;
}

export interface LookupContext {
  /** Epoch ms after which the source must answer `unavailable` rather than keep trying. */
  deadline: number;
  clock: Clock;
}

export type SourceAnswer<R> =
  | { outcome: 'found'; record: R; retrievedAt: string; summary: Record<string, unknown> }
  | { outcome: 'not_found'; reason: string; retrievedAt: string; summary: Record<string, unknown> }
  | { outcome: 'unavailable'; reason: string; retrievedAt: string; summary: Record<string, unknown> };

/** One interface for every register: a query in, the register's verdict out; never throws for a source failure. */
export interface KybSource<Q, R> {
  readonly name: KybSourceName;
  lookup(query: Q, context: LookupContext): Promise<SourceAnswer<R>>;
}

export interface Address {
  lines: string[];
  locality?: string;
  region?: string;
  postalCode?: string;
  country?: string;
}

export interface RegistryOfficer {
  name: string;
  role: string;
  appointedOn?: string;
  /** Companies House publishes month and year only. */
  birthYearMonth?: string;
  nationality?: string;
}

export interface RegistryOwner {
  name: string;
  kind: 'person' | 'organization';
  naturesOfControl: string[];
  /** Lower bound of the ownership band Companies House publishes (25, 50 or 75), when it states one. */
  ownershipPercentAtLeast?: number;
  birthYearMonth?: string;
}

export interface RegistryRecord {
  companyNumber: string;
  name: string;
  /** Companies House `company_status`: active, dissolved, liquidation, administration … */
  status: string;
  type?: string;
  incorporatedOn?: string;
  jurisdiction?: string;
  address?: Address;
  sicCodes?: string[];
  officers: RegistryOfficer[];
  owners: RegistryOwner[];
  /** Set when the officers or PSC list could not be read although the profile could. */
  incomplete?: string[];
}

export interface RegistryQuery {
  companyNumber: string;
}

export interface VatRecord {
  countryCode: string;
  vatNumber: string;
  valid: boolean;
  /** Absent when the member state does not disclose it (VIES answers "---"). */
  name?: string;
  address?: string;
  requestDate?: string;
}

export interface VatQuery {
  countryCode: string;
  vatNumber: string;
}

export interface RegulatorRecord {
  firmReference: string;
  name: string;
  /** FCA register status: Authorised, EEA Authorised, Registered, No longer authorised, Cancelled … */
  status: string;
  statusEffectiveDate?: string;
  businessType?: string;
  companiesHouseNumber?: string;
}

export interface RegulatorQuery {
  firmReference: string;
}

export interface LeiRecord {
  lei: string;
  legalName: string;
  /** GLEIF registration.status: ISSUED, LAPSED, PENDING_TRANSFER, RETIRED, ANNULLED, MERGED, DUPLICATE … */
  registrationStatus: string;
  /** GLEIF entity.status: ACTIVE or INACTIVE. */
  entityStatus: string;
  registeredAs?: string;
  jurisdiction?: string;
  legalAddress?: Address;
  nextRenewalDate?: string;
}

export interface LeiQuery {
  lei: string;
}

export interface KybSources {
  /** Company registries by ISO 3166 country. */
  registries: Partial<Record<string, KybSource<RegistryQuery, RegistryRecord>>>;
  /** Tax authority VAT checks by VAT prefix (VIES member state code, EL, XI …). */
  taxAuthorities: Partial<Record<string, KybSource<VatQuery, VatRecord>>>;
  /** Financial regulators' registers by ISO 3166 country. */
  regulators: Partial<Record<string, KybSource<RegulatorQuery, RegulatorRecord>>>;
  lei?: KybSource<LeiQuery, LeiRecord>;
}

// ---------------------------------------------------------------------------------------------------------------
// Screening (the AML engine, injected)

export interface ScreeningSubject {
  name: string;
  type: 'person' | 'organization';
  dateOfBirth?: string;
  country?: string;
}

export interface ScreeningMatch {
  entityId?: string;
  name?: string;
  matchedName?: string;
  /** 0–1. */
  score: number;
  lists?: string[];
  programs?: string[];
  [key: string]: unknown;
}

export interface ScreeningOutcome {
  status: 'clear' | 'potential_match' | 'unavailable';
  matches: ScreeningMatch[];
}

export type ScreenFunction = (subject: ScreeningSubject) => Promise<ScreeningOutcome>;

// ---------------------------------------------------------------------------------------------------------------
// Decision

export type CheckName = 'registry' | 'tax' | 'regulator' | 'lei' | 'aml';
export type CheckResult = 'passed' | 'review' | 'failed' | 'skipped';

export interface Reason {
  code: string;
  message: string;
}

export interface KybCheck {
  name: CheckName;
  result: CheckResult;
  reasons: Reason[];
  source?: KybSourceName;
  retrievedAt?: string;
}

export interface KybParty {
  name: string;
  type: 'person' | 'organization';
  role: 'company' | 'officer' | 'owner';
  /** Officer role or owner's nature of control. */
  position?: string;
  ownershipPercent?: number;
  from: Array<'request' | 'registry'>;
  screening: ScreeningOutcome;
}

export interface KybCompany {
  name: string;
  country: string;
  registrationNumber: string;
  status?: string;
  type?: string;
  incorporatedOn?: string;
  jurisdiction?: string;
  registeredAddress?: Address;
  sicCodes?: string[];
  vat?: { number: string; valid: boolean; name?: string; address?: string };
  lei?: { code: string; legalName: string; registrationStatus: string; entityStatus: string; nextRenewalDate?: string };
  regulator?: { id: string; name: string; status: string; statusEffectiveDate?: string };
  officers: RegistryOfficer[];
  owners: RegistryOwner[];
}

export interface KybSourceReport {
  name: KybSourceName;
  retrievedAt: string;
  status: 'found' | 'not_found' | 'unavailable';
  reason?: string;
  summary: Record<string, unknown>;
}

export interface KybResult {
  status: 'passed' | 'review' | 'failed';
  riskLevel: 'low' | 'medium' | 'high';
  score: number;
  checks: KybCheck[];
  company: KybCompany;
  parties: KybParty[];
  sources: KybSourceReport[];
}
