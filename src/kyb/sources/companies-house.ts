// UK Companies House public data API: company profile, officers and persons with significant control (PSC).
// Auth is HTTP Basic with the API key as the user name and an empty password. A missing company is 404
// `{"errors":[{"error":"company-profile-not-found","type":"ch:service"}]}`; the published limit is 600 requests per
// 5 minutes, beyond which the API answers 429.
import type {
  Address,
  Clock,
  KybSource,
  LookupContext,
  RegistryOfficer,
  RegistryOwner,
  RegistryQuery,
  RegistryRecord,
  SourceAnswer,
} from '../types.ts';
import { asArray, asRecord, asString, found, fromFailure, notFound, unexpectedStatus } from './answers.ts';
import { createSourceHttpClient, type SourceEndpointConfig, type SourceHttpClient } from './http.ts';

export interface CompaniesHouseConfig extends SourceEndpointConfig {
  apiKey: string;
}

export function mapCompaniesHouseAddress(raw: unknown): Address | undefined {
  const address = asRecord(raw);
  const premises = asString(address.premises);
  const line1 = asString(address.address_line_1);
  const lines = [premises && line1 ? `${premises} ${line1}` : (premises ?? line1), asString(address.address_line_2)]
    .filter((line): line is string => line !== undefined);
  if (lines.length === 0 && !asString(address.postal_code)) return undefined;
  return {
    lines,
    locality: asString(address.locality),
    region: asString(address.region),
    postalCode: asString(address.postal_code),
    country: asString(address.country),
  };
}

function birthYearMonth(raw: unknown): string | undefined {
  const dob = asRecord(raw);
  if (typeof dob.year !== 'number') return undefined;
  return typeof dob.month === 'number' ? `${dob.year}-${String(dob.month).padStart(2, '0')}` : String(dob.year);
}

/** Companies House writes people as "SURNAME, Forenames"; screening wants the natural order. */
export function naturalOrderName(name: string): string {
  const parts = name.split(',');
  return parts.length === 2 && parts[1].trim() ? `${parts[1].trim()} ${parts[0].trim()}` : name.trim();
}

export function mapOfficers(body: unknown): RegistryOfficer[] {
  return asArray(asRecord(body).items)
    .map(asRecord)
    .filter((item) => !asString(item.resigned_on) && asString(item.name))
    .map((item) => ({
      name: naturalOrderName(asString(item.name)!),
      role: asString(item.officer_role) ?? 'officer',
      appointedOn: asString(item.appointed_on),
      birthYearMonth: birthYearMonth(item.date_of_birth),
      nationality: asString(item.nationality),
    }));
}

/** "ownership-of-shares-25-to-50-percent" and its "-as-trust"/"-as-firm" variants give the band's lower bound. */
export function ownershipLowerBound(natures: string[]): number | undefined {
  const bounds = natures
    .map((nature) => /^ownership-of-shares-(?:more-than-)?(\d+)(?:-to-\d+)?-percent/.exec(nature))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]));
  return bounds.length ? Math.max(...bounds) : undefined;
}

export function mapOwners(body: unknown): RegistryOwner[] {
  return asArray(asRecord(body).items)
    .map(asRecord)
    .filter((item) => !asString(item.ceased_on) && asString(item.name))
    .map((item) => {
      const natures = asArray(item.natures_of_control).filter((n): n is string => typeof n === 'string');
      const kind = asString(item.kind) ?? '';
      return {
        name: kind.startsWith('individual') ? naturalOrderName(asString(item.name)!) : asString(item.name)!,
        kind: kind.startsWith('individual') ? ('person' as const) : ('organization' as const),
        naturesOfControl: natures,
        ownershipPercentAtLeast: ownershipLowerBound(natures),
        birthYearMonth: birthYearMonth(item.date_of_birth),
      };
    });
}

export function mapCompanyProfile(body: unknown): Omit<RegistryRecord, 'officers' | 'owners'> {
  const profile = asRecord(body);
  return {
    companyNumber: asString(profile.company_number) ?? '',
    name: asString(profile.company_name) ?? '',
    status: asString(profile.company_status) ?? 'unknown',
    type: asString(profile.type),
    incorporatedOn: asString(profile.date_of_creation),
    jurisdiction: asString(profile.jurisdiction),
    address: mapCompaniesHouseAddress(profile.registered_office_address),
    sicCodes: asArray(profile.sic_codes).filter((code): code is string => typeof code === 'string'),
  };
}

type ListAnswer<T> = { items: T[] } | { missing: string };

async function readList<T>(
  http: SourceHttpClient,
  path: string,
  headers: Record<string, string>,
  context: LookupContext,
  map: (body: unknown) => T[],
): Promise<ListAnswer<T>> {
  const outcome = await http.send({ method: 'GET', path, headers }, context);
  if (outcome.kind === 'failure') return { missing: outcome.reason };
  // Companies House answers 404 for a company that has never filed officers or PSCs.
  if (outcome.response.status === 404) return { items: [] };
  if (outcome.response.status !== 200) return { missing: `http_${outcome.response.status}` };
  return { items: map(outcome.response.body) };
}

export function createCompaniesHouseSource(
  config: CompaniesHouseConfig,
  clock: Clock,
): KybSource<RegistryQuery, RegistryRecord> {
  const http = createSourceHttpClient(config, clock);
  const headers = { authorization: `Basic ${Buffer.from(`${config.apiKey}:`).toString('base64')}` };

  return {
    name: 'companies_house',
    async lookup({ companyNumber }, context): Promise<SourceAnswer<RegistryRecord>> {
      const base = `/company/${encodeURIComponent(companyNumber)}`;
      const [profile, officers, owners] = await Promise.all([
        http.send({ method: 'GET', path: base, headers }, context),
        readList(http, `${base}/officers?items_per_page=100`, headers, context, mapOfficers),
        readList(http, `${base}/persons-with-significant-control?items_per_page=100`, headers, context, mapOwners),
      ]);
      if (profile.kind === 'failure') return fromFailure(clock, profile);
      const { status, body } = profile.response;
      if (status === 404) {
        const error = asString(asRecord(asArray(asRecord(body).errors)[0]).error) ?? 'company-profile-not-found';
        return notFound(clock, 'company_not_found', { companyNumber, error });
      }
      if (status !== 200) return unexpectedStatus(clock, status);

      const incomplete = [
        'missing' in officers ? `officers: ${officers.missing}` : null,
        'missing' in owners ? `persons-with-significant-control: ${owners.missing}` : null,
      ].filter((gap): gap is string => gap !== null);
      const record: RegistryRecord = {
        ...mapCompanyProfile(body),
        officers: 'items' in officers ? officers.items : [],
        owners: 'items' in owners ? owners.items : [],
        ...(incomplete.length ? { incomplete } : {}),
      };
      return found(clock, record, {
        companyNumber: record.companyNumber,
        companyName: record.name,
        companyStatus: record.status,
        type: record.type,
        activeOfficers: record.officers.length,
        activePersonsWithSignificantControl: record.owners.length,
        ...(incomplete.length ? { incomplete } : {}),
      });
    },
  };
}
