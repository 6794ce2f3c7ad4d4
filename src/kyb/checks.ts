// Each check turns one register's answer into passed / review / failed with reasons; `decide` turns the checks into
// the outcome. Pure functions: no I/O, no clock.
//
// The rule (documented for integrators):
//   - a check that could not be done (source down, timed out, not configured, no register for the country) is
//     `review`, never `passed`;
//   - status: any check failed → failed; else any review → review; else passed;
//   - riskLevel: failed → high, review → medium, passed → low;
//   - score: weighted mean of the checks that ran (passed 1, review 0.5, failed 0; weights registry 0.35,
//     aml 0.25, tax 0.15, regulator 0.15, lei 0.10), capped at 0.3 when failed and 0.8 under review.
import { companyNameSimilarity } from './names.ts';
import type {
  CheckName,
  CheckResult,
  KybCheck,
  KybParty,
  KybResult,
  KybSourceName,
  LeiRecord,
  Reason,
  RegistryRecord,
  RegulatorRecord,
  SourceAnswer,
  VatRecord,
} from './types.ts';
import { normaliseRegistrationNumber, vatPrefixCountry, type NormalisedKybRequest } from './validation.ts';

export const NAME_MATCH = 0.9;
export const NAME_PARTIAL = 0.75;
export const STRONG_SCREENING_MATCH = 0.9;

const RANK: Record<CheckResult, number> = { skipped: 0, passed: 1, review: 2, failed: 3 };

function worst(results: CheckResult[]): CheckResult {
  return results.reduce<CheckResult>((acc, next) => (RANK[next] > RANK[acc] ? next : acc), 'passed');
}

interface Finding {
  result: 'passed' | 'review' | 'failed';
  reason: Reason;
}

const passed = (code: string, message: string): Finding => ({ result: 'passed', reason: { code, message } });
const review = (code: string, message: string): Finding => ({ result: 'review', reason: { code, message } });
const failed = (code: string, message: string): Finding => ({ result: 'failed', reason: { code, message } });

function check(name: CheckName, findings: Finding[], answer?: SourceAnswer<unknown>, source?: KybSourceName): KybCheck {
  return {
    name,
    result: worst(findings.map((finding) => finding.result)),
    reasons: findings.map((finding) => finding.reason),
    ...(source ? { source } : {}),
    ...(answer ? { retrievedAt: answer.retrievedAt } : {}),
  };
}

export function skippedCheck(name: CheckName, message: string): KybCheck {
  return { name, result: 'skipped', reasons: [{ code: 'not_requested', message }] };
}

export function noSourceCheck(name: CheckName, message: string): KybCheck {
  return check(name, [review('no_source', message)]);
}

/** The findings every source shares: it did not answer, or it has no such record. */
function unanswered(answer: SourceAnswer<unknown>, notFoundCode: string, what: string): Finding | null {
  if (answer.outcome === 'unavailable') {
    return review('source_unavailable', `${what} could not be checked: ${answer.reason}`);
  }
  if (answer.outcome === 'not_found') return failed(notFoundCode, `${what}: no record (${answer.reason})`);
  return null;
}

function nameFinding(
  code: string,
  ours: string,
  theirs: string,
  registerName: string,
  thresholds = { match: NAME_MATCH, partial: NAME_PARTIAL },
  below: 'failed' | 'review' = 'failed',
): Finding {
  const similarity = companyNameSimilarity(ours, theirs);
  const detail = `"${ours}" vs "${theirs}" at ${registerName} (similarity ${similarity})`;
  if (similarity >= thresholds.match) return passed(`${code}_match`, `names match: ${detail}`);
  if (similarity >= thresholds.partial) return review(`${code}_partial_match`, `names only partly match: ${detail}`);
  return (below === 'failed' ? failed : review)(`${code}_mismatch`, `names do not match: ${detail}`);
}

const INACTIVE_COMPANY_STATUSES = new Set(['dissolved', 'converted-closed', 'closed', 'removed']);

export function registryCheck(
  request: NormalisedKybRequest,
  answer: SourceAnswer<RegistryRecord>,
  source: KybSourceName,
): KybCheck {
  const problem = unanswered(answer, 'company_not_found', `company ${request.registrationNumber}`);
  if (problem || answer.outcome !== 'found') return check('registry', [problem!], answer, source);
  const record = answer.record;
  const findings: Finding[] = [nameFinding('registry_name', request.companyName, record.name, 'the registry')];
  if (record.status === 'active') findings.push(passed('company_active', 'the registry lists the company as active'));
  else if (INACTIVE_COMPANY_STATUSES.has(record.status)) {
    findings.push(failed('company_not_active', `the registry lists the company as ${record.status}`));
  } else findings.push(review('company_status', `the registry lists the company as ${record.status}`));
  for (const gap of record.incomplete ?? []) {
    findings.push(review('registry_incomplete', `part of the registry record could not be read (${gap})`));
  }
  return check('registry', findings, answer, source);
}

export function taxCheck(
  request: NormalisedKybRequest,
  answer: SourceAnswer<VatRecord>,
  source: KybSourceName,
  companyName: string,
): KybCheck {
  const vat = `VAT number ${request.vat!.prefix}${request.vat!.number}`;
  const problem = unanswered(answer, 'vat_invalid', vat);
  if (problem || answer.outcome !== 'found') return check('tax', [problem!], answer, source);
  const record = answer.record;
  if (!record.valid) return check('tax', [failed('vat_invalid', `the tax authority says ${vat} is not valid`)], answer, source);
  const findings = [passed('vat_valid', `the tax authority confirms ${vat} is valid`)];
  if (record.name === undefined) {
    findings.push(passed('vat_name_not_disclosed', 'the member state does not disclose the VAT registrant name'));
  } else {
    findings.push(nameFinding('vat_name', companyName, record.name, 'the tax authority', { match: 0.85, partial: 0.6 }));
  }
  const vatCountry = vatPrefixCountry(request.vat!.prefix);
  if (vatCountry !== request.country) {
    findings.push(passed('vat_foreign_registration', `the VAT registration is in ${vatCountry}, not ${request.country}`));
  }
  return check('tax', findings, answer, source);
}

/** Compare a company number a register states with the requested one, after both are normalised. */
function companyNumberFinding(
  code: string,
  request: NormalisedKybRequest,
  stated: string | undefined,
  register: string,
): Finding {
  if (!stated) return review(`${code}_absent`, `${register} states no company number to link the record with`);
  const normalised = normaliseRegistrationNumber(stated, request.country);
  const theirs = typeof normalised === 'string' ? normalised : stated;
  return theirs === request.registrationNumber
    ? passed(`${code}_linked`, `${register} states company number ${theirs}, the one requested`)
    : failed(`${code}_mismatch`, `${register} states company number ${theirs}, not ${request.registrationNumber}`);
}

const AUTHORISED = new Set(['authorised', 'eea authorised']);
const NOT_AUTHORISED = new Set(['no longer authorised', 'no longer registered', 'cancelled', 'unauthorised', 'revoked']);

export function regulatorCheck(
  request: NormalisedKybRequest,
  answer: SourceAnswer<RegulatorRecord>,
  source: KybSourceName,
  companyName: string,
): KybCheck {
  const problem = unanswered(answer, 'firm_not_found', `firm ${request.regulatorId}`);
  if (problem || answer.outcome !== 'found') return check('regulator', [problem!], answer, source);
  const record = answer.record;
  const status = record.status.toLowerCase();
  const findings: Finding[] = [];
  if (AUTHORISED.has(status)) findings.push(passed('regulator_authorised', `the regulator lists the firm as ${record.status}`));
  else if (NOT_AUTHORISED.has(status)) {
    findings.push(failed('regulator_not_authorised', `the regulator lists the firm as ${record.status}`));
  } else {
    findings.push(review('regulator_status', `the regulator lists the firm as ${record.status}, not authorised`));
  }
  findings.push(nameFinding('regulator_name', companyName, record.name, 'the regulator', undefined, 'review'));
  findings.push(companyNumberFinding('regulator_company_number', request, record.companiesHouseNumber, 'the regulator'));
  return check('regulator', findings, answer, source);
}

const LEI_UNDER_REVIEW = new Set(['LAPSED', 'PENDING_TRANSFER', 'PENDING_ARCHIVAL', 'PENDING_VALIDATION']);
const LEI_INVALID = new Set(['RETIRED', 'ANNULLED', 'MERGED', 'DUPLICATE', 'CANCELLED', 'TRANSFERRED']);

export function leiCheck(
  request: NormalisedKybRequest,
  answer: SourceAnswer<LeiRecord>,
  source: KybSourceName,
  companyName: string,
): KybCheck {
  const problem = unanswered(answer, 'lei_not_found', `LEI ${request.lei}`);
  if (problem || answer.outcome !== 'found') return check('lei', [problem!], answer, source);
  const record = answer.record;
  const findings: Finding[] = [];
  const status = record.registrationStatus;
  if (status === 'ISSUED') findings.push(passed('lei_issued', 'the LEI registration is ISSUED'));
  else if (LEI_UNDER_REVIEW.has(status)) findings.push(review(`lei_${status.toLowerCase()}`, `the LEI registration is ${status}`));
  else if (LEI_INVALID.has(status)) findings.push(failed('lei_not_valid', `the LEI registration is ${status}`));
  else findings.push(review('lei_status', `the LEI registration is ${status}`));
  if (record.entityStatus === 'INACTIVE') findings.push(failed('lei_entity_inactive', 'GLEIF lists the entity as INACTIVE'));
  const jurisdictionCountry = record.jurisdiction?.slice(0, 2);
  if (jurisdictionCountry && jurisdictionCountry !== request.country) {
    findings.push(review('lei_jurisdiction_mismatch', `the LEI's jurisdiction is ${record.jurisdiction}, not ${request.country}`));
  } else {
    findings.push(companyNumberFinding('lei_company_number', request, record.registeredAs, 'GLEIF (registeredAs)'));
  }
  findings.push(nameFinding('lei_name', companyName, record.legalName, 'GLEIF', undefined, 'review'));
  return check('lei', findings, answer, source);
}

export function amlCheck(parties: KybParty[]): KybCheck {
  const findings: Finding[] = parties.flatMap((party): Finding[] => {
    const who = `${party.role} "${party.name}"`;
    const { status, matches } = party.screening;
    if (status === 'unavailable') return [review('screening_unavailable', `${who} could not be screened`)];
    if (status === 'clear') return [];
    const best = Math.max(0, ...matches.map((match) => match.score));
    const listed = [...new Set(matches.flatMap((match) => match.lists ?? []))].join(', ') || 'a watch list';
    return best >= STRONG_SCREENING_MATCH
      ? [failed('sanctions_match', `${who} matches ${listed} (score ${best})`)]
      : [review('possible_sanctions_match', `${who} may match ${listed} (score ${best})`)];
  });
  if (findings.length === 0) findings.push(passed('screening_clear', `${parties.length} parties screened, no match`));
  return check('aml', findings);
}

const WEIGHTS: Record<CheckName, number> = { registry: 0.35, aml: 0.25, tax: 0.15, regulator: 0.15, lei: 0.1 };
const VALUE: Record<CheckResult, number> = { passed: 1, review: 0.5, failed: 0, skipped: 0 };

export function decide(checks: KybCheck[]): Pick<KybResult, 'status' | 'riskLevel' | 'score'> {
  const ran = checks.filter((c) => c.result !== 'skipped');
  const status = worst(ran.map((c) => c.result)) as 'passed' | 'review' | 'failed';
  const weight = ran.reduce((sum, c) => sum + WEIGHTS[c.name], 0);
  const mean = weight === 0 ? 0 : ran.reduce((sum, c) => sum + WEIGHTS[c.name] * VALUE[c.result], 0) / weight;
  const cap = status === 'failed' ? 0.3 : status === 'review' ? 0.8 : 1;
  return {
    status,
    riskLevel: status === 'failed' ? 'high' : status === 'review' ? 'medium' : 'low',
    score: Math.round(Math.min(mean, cap) * 100) / 100,
  };
}
