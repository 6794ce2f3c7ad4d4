import type { KybRequest } from './types.ts';
import type { FieldIssue } from '../errors.ts';

// Offline checks run before any source is called: a malformed identifier is the caller's error (400 with a
// reason), never a wasted, rate-limited call to a public register.

const ISO_3166_ALPHA2 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS ' +
    'MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS ' +
    'RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW ' +
    'TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

export function isCountryCode(value: string): boolean {
  return ISO_3166_ALPHA2.has(value);
}

// ---------------------------------------------------------------------------------------------------------------
// LEI — ISO 17442: 18 alphanumeric characters and two check digits, ISO 7064 MOD 97-10 over the whole code.

export function leiCheckProblem(value: string): string | null {
  if (!/^[A-Z0-9]{20}$/.test(value)) return 'an LEI is 20 characters, digits and capital letters (ISO 17442)';
  if (!/^[0-9]{2}$/.test(value.slice(18))) return 'the last two characters of an LEI are check digits';
  return mod97(value) === 1 ? null : 'the LEI check digits do not match (ISO 7064 MOD 97-10)';
}

function mod97(alphanumeric: string): number {
  let remainder = 0;
  for (const char of alphanumeric) {
    const digits = /[0-9]/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

// ---------------------------------------------------------------------------------------------------------------
// VAT numbers. VIES knows member states by their VAT prefix (Greece is EL, Northern Ireland traders XI); GB numbers
// have the same shape as XI but are checked by HMRC, not VIES.

const VAT_FORMATS: Record<string, RegExp> = {
  AT: /^U[0-9]{8}$/,
  BE: /^[01][0-9]{9}$/,
  BG: /^[0-9]{9,10}$/,
  CY: /^[0-9]{8}[A-Z]$/,
  CZ: /^[0-9]{8,10}$/,
  DE: /^[0-9]{9}$/,
  DK: /^[0-9]{8}$/,
  EE: /^[0-9]{9}$/,
  EL: /^[0-9]{9}$/,
  ES: /^[A-Z0-9][0-9]{7}[A-Z0-9]$/,
  FI: /^[0-9]{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}[0-9]{9}$/,
  HR: /^[0-9]{11}$/,
  HU: /^[0-9]{8}$/,
  IE: /^([0-9]{7}[A-W][A-IW]?|[0-9][A-Z+*][0-9]{5}[A-W])$/,
  IT: /^[0-9]{11}$/,
  LT: /^([0-9]{9}|[0-9]{12})$/,
  LU: /^[0-9]{8}$/,
  LV: /^[0-9]{11}$/,
  MT: /^[0-9]{8}$/,
  NL: /^[0-9]{9}B[0-9]{2}$/,
  PL: /^[0-9]{10}$/,
  PT: /^[0-9]{9}$/,
  RO: /^[1-9][0-9]{1,9}$/,
  SE: /^[0-9]{10}01$/,
  SI: /^[0-9]{8}$/,
  SK: /^[0-9]{10}$/,
  XI: /^([0-9]{9}|[0-9]{12}|GD[0-4][0-9]{2}|HA[5-9][0-9]{2})$/,
  GB: /^([0-9]{9}|[0-9]{12}|GD[0-4][0-9]{2}|HA[5-9][0-9]{2})$/,
};

/** VAT prefix → ISO 3166 country of the registrant. */
const VAT_PREFIX_COUNTRY: Record<string, string> = { EL: 'GR', XI: 'GB' };

export function vatPrefixForCountry(country: string): string | null {
  if (country === 'GR') return 'EL';
  return country in VAT_FORMATS ? country : null;
}

export function vatPrefixCountry(prefix: string): string {
  return VAT_PREFIX_COUNTRY[prefix] ?? prefix;
}

export interface VatNumber {
  /** VIES member state code (EL for Greece, XI for Northern Ireland). */
  prefix: string;
  /** The number without prefix, separators removed. */
  number: string;
}

export function parseVatNumber(raw: string, country: string): VatNumber | { problem: string } {
  const compact = raw.toUpperCase().replace(/[\s.\-/]/g, '');
  const written = compact.slice(0, 2);
  const prefix = /^[A-Z]{2}/.test(compact) && written in VAT_FORMATS ? written : vatPrefixForCountry(country);
  if (!prefix) {
    return { problem: `no VAT number format is known for country ${country}; write the number with its EU prefix` };
  }
  const number = compact.startsWith(prefix) && prefix === written ? compact.slice(2) : compact;
  if (!VAT_FORMATS[prefix].test(number)) {
    return { problem: `not a ${prefix} VAT number: ${describeVatFormat(prefix)}` };
  }
  return { prefix, number };
}

function describeVatFormat(prefix: string): string {
  return `expected the pattern ${VAT_FORMATS[prefix].source.replace(/^\^|\$$/g, '')} after the ${prefix} prefix`;
}

// ---------------------------------------------------------------------------------------------------------------
// UK company numbers: Companies House keys every company by 8 characters — digits zero-padded to 8, or a
// two-letter register prefix followed by 6 zero-padded digits (SC001234). "R0" (pre-1922 Northern Ireland) is a
// prefix of a letter and a digit.

const UK_COMPANY_PREFIXES = new Set(
  (
    'AC BR CE CS EN ES FC GE GN GS IC IP LP NA NC NF NI NL NO NP NR NV NZ OC PC R0 RC RS SA SC SE SF SG SI SL SO ' +
    'SP SR SZ ZC'
  ).split(' '),
);

export function normaliseUkCompanyNumber(raw: string): string | { problem: string } {
  const compact = raw.toUpperCase().replace(/[\s.\-]/g, '');
  if (/^[0-9]{1,8}$/.test(compact)) return compact.padStart(8, '0');
  const prefixed = /^([A-Z][A-Z0-9])([0-9]{1,6})$/.exec(compact);
  if (prefixed && UK_COMPANY_PREFIXES.has(prefixed[1])) return prefixed[1] + prefixed[2].padStart(6, '0');
  if (prefixed) return { problem: `unknown Companies House register prefix ${prefixed[1]}` };
  return {
    problem: 'a UK company number is up to 8 digits, or a register prefix (SC, NI, OC, SO, NC, R0 …) and up to 6 digits',
  };
}

export function normaliseRegistrationNumber(raw: string, country: string): string | { problem: string } {
  if (country === 'GB') return normaliseUkCompanyNumber(raw);
  const trimmed = raw.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9 .\-/]{0,63}$/.test(trimmed)) {
    return { problem: 'a registration number is 1–64 letters, digits, spaces, dots, dashes or slashes' };
  }
  return trimmed;
}

// FCA Firm Reference Numbers are 6 or 7 digits.
export function firmReferenceProblem(value: string): string | null {
  return /^[0-9]{6,7}$/.test(value) ? null : 'an FCA Firm Reference Number (FRN) is 6 or 7 digits';
}

// ---------------------------------------------------------------------------------------------------------------
// The whole request.

export interface NormalisedKybRequest {
  companyName: string;
  country: string;
  /** As the country's register keys it (Companies House: 8 characters, zero-padded). */
  registrationNumber: string;
  vat?: VatNumber;
  lei?: string;
  regulatorId?: string;
  officers: Array<{ name: string; dateOfBirth?: string; role: string }>;
  owners: Array<{ name: string; dateOfBirth?: string; ownershipPercent: number }>;
}

const isCalendarDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

export function validateKybRequest(
  body: KybRequest,
): { request: NormalisedKybRequest } | { errors: FieldIssue[] } {
  const errors: FieldIssue[] = [];
  const fail = (path: string, message: string) => errors.push({ path, message });

  const companyName = text(body.companyName);
  if (!companyName || companyName.length > 300) fail('/companyName', 'a company name of 1–300 characters is required');

  const country = text(body.country).toUpperCase();
  if (!isCountryCode(country)) fail('/country', `unknown country code "${text(body.country)}" (ISO 3166-1 alpha-2)`);

  let registrationNumber = '';
  const registration = normaliseRegistrationNumber(text(body.registrationNumber), country);
  if (typeof registration === 'string') registrationNumber = registration;
  else fail('/registrationNumber', registration.problem);

  let vat: VatNumber | undefined;
  if (body.vatNumber !== undefined) {
    const parsed = parseVatNumber(text(body.vatNumber), country);
    if ('problem' in parsed) fail('/vatNumber', parsed.problem);
    else vat = parsed;
  }

  let lei: string | undefined;
  if (body.lei !== undefined) {
    lei = text(body.lei).toUpperCase();
    const problem = leiCheckProblem(lei);
    if (problem) fail('/lei', problem);
  }

  let regulatorId: string | undefined;
  if (body.regulatorId !== undefined) {
    regulatorId = text(body.regulatorId);
    const problem = country === 'GB' ? firmReferenceProblem(regulatorId) : regulatorId ? null : 'must not be empty';
    if (problem) fail('/regulatorId', problem);
  }

  const checkDate = (path: string, value: string | undefined) => {
    if (value !== undefined && !isCalendarDate(value)) fail(path, 'a date of birth is a calendar date YYYY-MM-DD');
  };
  const officers = (body.officers ?? []).map((officer, index) => {
    const name = text(officer.name);
    if (!name) fail(`/officers/${index}/name`, 'an officer needs a name');
    if (!text(officer.role)) fail(`/officers/${index}/role`, 'an officer needs a role');
    checkDate(`/officers/${index}/dateOfBirth`, officer.dateOfBirth);
    return { name, role: text(officer.role), ...(officer.dateOfBirth ? { dateOfBirth: officer.dateOfBirth } : {}) };
  });
  const owners = (body.owners ?? []).map((owner, index) => {
    const name = text(owner.name);
    if (!name) fail(`/owners/${index}/name`, 'an owner needs a name');
    const percent = owner.ownershipPercent;
    if (typeof percent !== 'number' || !(percent > 0 && percent <= 100)) {
      fail(`/owners/${index}/ownershipPercent`, 'ownership is a percentage above 0 and at most 100');
    }
    checkDate(`/owners/${index}/dateOfBirth`, owner.dateOfBirth);
    return { name, ownershipPercent: percent, ...(owner.dateOfBirth ? { dateOfBirth: owner.dateOfBirth } : {}) };
  });

  if (errors.length) return { errors };
  return {
    request: {
      companyName,
      country,
      registrationNumber,
      ...(vat ? { vat } : {}),
      ...(lei ? { lei } : {}),
      ...(regulatorId ? { regulatorId } : {}),
      officers,
      owners,
    },
  };
}

/** Appends the two ISO 7064 MOD 97-10 check digits to an 18-character LEI base. */
export function withLeiCheckDigits(base: string): string {
  return base + String(98 - mod97(`${base}00`)).padStart(2, '0');
}
