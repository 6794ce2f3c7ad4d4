// The decision rule: a pure function from measured signals (+ the AML outcome) to the outcome of a KYC check.
//
// 1. Each check (document, selfie, face_match, aml; sandbox_scenario when one applies) collects reason codes from
//    the thresholds below. Every reason code has a fixed effect (REASONS): it fails the check, sends it to review,
//    or is informational (weak signals such as liveness), and a fixed risk (low/medium/high).
// 2. A check's result is the worst effect among its reasons: failed > review > passed.
// 3. status is the worst check result. riskLevel is the highest risk among all reasons (low when there are none).
// 4. score (0–1, higher = more confidence the identity is genuine) is the lowest check confidence:
//    failed 0.1, review 0.5, passed 0.85 + 0.15 × evidence (name-match and face-similarity margin above their pass
//    thresholds; 1 for checks without a graded measure), minus 0.05 per informational reason.
// A sandbox scenario adds one reason to one check (see scenarios.ts); since results only ever take the worst reason,
// a scenario cannot turn an unusable image or an AML hit into a pass.
import { findSandboxScenario } from './scenarios.ts';
import type { KycSignals, ImageSignals } from './types.ts';
import type { MrzReading } from './mrz.ts';
import { VISUAL_FIELDS, type VisualField } from './visual-zone.ts';

export type CheckName = 'document' | 'selfie' | 'face_match' | 'aml' | 'sandbox_scenario';
export type CheckResult = 'passed' | 'review' | 'failed';
export type KycStatus = CheckResult;
export type RiskLevel = 'low' | 'medium' | 'high';

type Effect = 'failed' | 'review' | 'info';

/** Every reason a check can give, with its effect and risk. */
export const REASONS = {
  // image quality (document and selfie)
  image_too_small: { effect: 'failed', risk: 'medium' },
  image_blank: { effect: 'failed', risk: 'medium' },
  image_too_dark: { effect: 'failed', risk: 'medium' },
  image_blurred: { effect: 'failed', risk: 'medium' },
  image_glare: { effect: 'review', risk: 'medium' },
  /** The selfie's face is too few pixels wide to compare: the user should move closer. */
  face_too_small: { effect: 'failed', risk: 'medium' },
  // document reading
  mrz_not_found: { effect: 'failed', risk: 'medium' },
  mrz_check_digit_invalid: { effect: 'failed', risk: 'high' },
  mrz_field_invalid: { effect: 'failed', risk: 'high' },
  /** OCR look-alikes were repaired (field named); the check digits, composite included, hold after repair. */
  mrz_corrected: { effect: 'info', risk: 'low' },
  /** A look-alike chosen because it satisfies a check digit: the digit no longer vouches for the field. */
  mrz_repaired_by_check_digit: { effect: 'review', risk: 'medium' },
  /** A state code read as no ICAO code, taken for the one a look-alike swap gives: no check digit confirms it. */
  mrz_state_code_repaired: { effect: 'review', risk: 'medium' },
  /**
   * A checked field (named) whose characters, read with low or no confidence or read again alone as another character,
   * could be look-alikes with every check digit still holding (mrz-cells.ts withUncertainCharacters); also a doubled
   * letter read for a digit twice with every check digit holding, and a number another look at the page read otherwise.
   */
  mrz_uncertain_character: { effect: 'review', risk: 'medium' },
  /**
   * Round 27: a field named by a repair (mrz_repaired_by_check_digit) or an uncertain character (above) that the printed
   * page shows character for character, every character read confidently (visual-zone.ts confirmedInPrint): a second,
   * independent reading vouches for what the check digit could not, and the document is not sent to review for it.
   * Two codes, so that a passed reading still says whether a check digit chose the field or a character was doubted.
   */
  mrz_repair_confirmed_by_print: { effect: 'info', risk: 'low' },
  mrz_uncertain_character_confirmed_by_print: { effect: 'info', risk: 'low' },
  document_type_mismatch: { effect: 'review', risk: 'medium' },
  /**
   * The photo holds a second document of another holder, its MRZ read valid (analyse.ts readApplicantMrz): the one
   * whose name matches the request was taken, but a human confirms whose document is being verified.
   */
  other_person_document_in_photo: { effect: 'review', risk: 'high' },
  /**
   * The printed page clearly shows another number, name or date than the valid MRZ (field named): the page or the
   * MRZ was altered, or the OCR misread confidently. A human compares the two, as vendors do with a data-consistency
   * failure; high risk.
   */
  visual_zone_mismatch: { effect: 'review', risk: 'high' },
  document_expired: { effect: 'failed', risk: 'high' },
  expiry_date_unreadable: { effect: 'failed', risk: 'medium' },
  expiry_date_implausible: { effect: 'review', risk: 'high' },
  birth_date_unreadable: { effect: 'failed', risk: 'medium' },
  birth_date_implausible: { effect: 'failed', risk: 'high' },
  dates_inconsistent: { effect: 'failed', risk: 'high' },
  text_unreadable: { effect: 'failed', risk: 'medium' },
  name_not_provided: { effect: 'review', risk: 'medium' },
  name_partial_match: { effect: 'review', risk: 'medium' },
  name_mismatch: { effect: 'failed', risk: 'high' },
  address_not_found: { effect: 'failed', risk: 'medium' },
  issue_date_not_found: { effect: 'failed', risk: 'medium' },
  document_older_than_3_months: { effect: 'failed', risk: 'medium' },
  // forensics
  edited_with_software: { effect: 'review', risk: 'high' },
  exif_date_in_future: { effect: 'review', risk: 'high' },
  exif_modified_after_capture: { effect: 'review', risk: 'medium' },
  document_image_reused: { effect: 'review', risk: 'high' },
  /** A published specimen or ICAO's specimen state UTO (specimen.ts): live keys only; test keys may verify them. */
  specimen_document: { effect: 'failed', risk: 'high' },
  // selfie and face
  no_face_detected: { effect: 'failed', risk: 'medium' },
  multiple_faces: { effect: 'failed', risk: 'high' },
  no_face_on_document: { effect: 'failed', risk: 'medium' },
  face_not_comparable: { effect: 'failed', risk: 'medium' },
  face_similarity_low: { effect: 'review', risk: 'high' },
  face_mismatch: { effect: 'failed', risk: 'high' },
  spoof_suspected: { effect: 'info', risk: 'medium' },
  liveness_low: { effect: 'info', risk: 'medium' },
  // AML
  aml_potential_match: { effect: 'review', risk: 'high' },
  aml_lists_unavailable: { effect: 'review', risk: 'medium' },
  // sandbox
  sandbox_forced_review: { effect: 'review', risk: 'medium' },
  sandbox_forced_failure: { effect: 'failed', risk: 'high' },
} as const satisfies Record<string, { effect: Effect; risk: RiskLevel }>;

export type ReasonCode = keyof typeof REASONS;

/** Thresholds of the rule. Face figures: "Face match" in README.md of this folder. */
export const THRESHOLDS = {
  /** Below this a document is refused unless its MRZ was read valid (small images are upscaled before OCR). */
  documentMinShortSide: 400,
  /** Below this a document is refused even when something was read: too few pixels per MRZ character. */
  documentMinReadableShortSide: 120,
  selfieMinShortSide: 240,
  blankMaxStdLuma: 8,
  darkMaxMeanLuma: 50,
  /** Laplacian variance at the 640 px analysis scale of a page. */
  documentBlurMaxLaplacian: 120,
  /** Laplacian variance of the selfie's face at its 160 px analysis scale (of the whole selfie when it has no face). */
  selfieBlurMaxLaplacian: 40,
  /** Share of blown-out cells on a document that is not white paper (median luma below glareMaxMedianLuma). */
  glareMinCellShare: 0.06,
  glareMaxMedianLuma: 245,
  /** Share of blown-out cells on the selfie's face (its box takes in some background: a white wall is not glare). */
  faceGlareMinCellShare: 0.2,
  /** Width of the selfie's face box in the original image's pixels. */
  selfieMinFaceWidth: 80,
  namePass: 0.85,
  nameReview: 0.7,
  /** Cosine similarity of the ResNet-34 descriptors: above every calibration impostor pair, and their 1 % tail. */
  faceMatchPass: 0.935,
  faceMatchReview: 0.926,
  /** A similarity this high is full evidence (the calibration genuine median); the score grows up to it. */
  faceMatchFullEvidence: 0.97,
  spoofMinReal: 0.2,
  livenessMin: 0.3,
  maxAgeYears: 120,
  maxValidityYears: 15,
  proofOfAddressMaxAgeDays: 92,
  exifModifiedToleranceSeconds: 60,
} as const;

const EDITING_SOFTWARE = /photoshop|gimp|lightroom|affinity|pixelmator|paint\.net|paintshop|corel|krita|snapseed|picsart|canva|facetune|photopea|fotor|befunky|photoscape|inkscape|illustrator/i;

export interface AmlOutcome {
  /** false when amlScreening was switched off: no AML check is reported. */
  screened: boolean;
  status: 'clear' | 'potential_match' | 'unavailable';
  matches: unknown[];
}

export interface KycCheck {
  name: CheckName;
  result: CheckResult;
  /** Reason codes (REASONS); a code with a suffix names the field, e.g. mrz_check_digit_invalid:birthDate. */
  reasons: string[];
}

export interface KycDecision {
  status: KycStatus;
  riskLevel: RiskLevel;
  score: number;
  checks: KycCheck[];
  /** The sandbox scenario applied, if any. */
  scenario: string | null;
}

export interface KycDecisionInput {
  signals: KycSignals;
  aml: AmlOutcome;
  environment: 'sandbox' | 'live';
  /** metadata.reference: selects a sandbox scenario (sandbox only). */
  reference?: string | null;
  /** Earlier checks of the same tenant whose document perceptual hash is within SAME_IMAGE_MAX_DISTANCE. */
  reusedDocumentCheckIds?: readonly string[];
}

export interface Finding {
  code: ReasonCode;
  detail?: string;
}

function imageFindings(image: ImageSignals, kind: 'document' | 'selfie', readValid = false): Finding[] {
  const q = image.quality;
  const found: Finding[] = [];
  const documentMinSide = readValid ? THRESHOLDS.documentMinReadableShortSide : THRESHOLDS.documentMinShortSide;
  const minSide = kind === 'document' ? documentMinSide : THRESHOLDS.selfieMinShortSide;
  if (q.shortSide < minSide) found.push({ code: 'image_too_small' });
  if (q.stdLuma < THRESHOLDS.blankMaxStdLuma) found.push({ code: 'image_blank' });
  else {
    if (q.meanLuma < THRESHOLDS.darkMaxMeanLuma) found.push({ code: 'image_too_dark' });
    const blurLimit = kind === 'document' ? THRESHOLDS.documentBlurMaxLaplacian : THRESHOLDS.selfieBlurMaxLaplacian;
    if (q.laplacianVariance < blurLimit) found.push({ code: 'image_blurred' });
  }
  if (kind === 'document' && q.glareCellShare >= THRESHOLDS.glareMinCellShare && q.medianLuma < THRESHOLDS.glareMaxMedianLuma) {
    found.push({ code: 'image_glare' });
  }
  if (q.region === 'face') {
    if (q.glareCellShare >= THRESHOLDS.faceGlareMinCellShare) found.push({ code: 'image_glare' });
    if (q.faceWidth !== null && q.faceWidth < THRESHOLDS.selfieMinFaceWidth) found.push({ code: 'face_too_small' });
  }
  return found;
}

function provenanceFindings(image: ImageSignals, now: Date): Finding[] {
  const p = image.provenance;
  const found: Finding[] = [];
  if (p.software && EDITING_SOFTWARE.test(p.software)) found.push({ code: 'edited_with_software' });
  const captured = p.capturedAt ? Date.parse(`${p.capturedAt}Z`) : NaN;
  const modified = p.modifiedAt ? Date.parse(`${p.modifiedAt}Z`) : NaN;
  // EXIF times carry no zone: allow a day either way before calling a date "in the future".
  if ((captured || modified) && Math.max(captured || 0, modified || 0) > now.getTime() + 86_400_000) {
    found.push({ code: 'exif_date_in_future' });
  }
  if (captured && modified && modified - captured > THRESHOLDS.exifModifiedToleranceSeconds * 1000) {
    found.push({ code: 'exif_modified_after_capture' });
  }
  return found;
}

function nameFindings(score: number | null): Finding[] {
  if (score === null) return [{ code: 'name_not_provided' }];
  if (score >= THRESHOLDS.namePass) return [];
  return [{ code: score >= THRESHOLDS.nameReview ? 'name_partial_match' : 'name_mismatch' }];
}

const DAY_MS = 86_400_000;

/**
 * The visual-zone field whose exact print confirms an MRZ field no check digit vouches for (round 27): the number and
 * the dates, and their own check digits read again from the image, which hold with the printed values.
 */
const CONFIRMED_BY: Readonly<Record<string, VisualField>> = {
  documentNumber: 'documentNumber',
  documentNumberCheckDigit: 'documentNumber',
  birthDate: 'birthDate',
  birthDateCheckDigit: 'birthDate',
  expirationDate: 'expiryDate',
  expirationDateCheckDigit: 'expiryDate',
};

/** What a repair or a doubt becomes where the printed page confirms its field (info, naming the doubt). */
const CONFIRMED_DOUBT = {
  mrz_repaired_by_check_digit: 'mrz_repair_confirmed_by_print',
  mrz_uncertain_character: 'mrz_uncertain_character_confirmed_by_print',
} as const;

/**
 * The MRZ fields a check digit chose (repairs) or cannot vouch for (uncertain characters), each a review reason unless
 * the printed page confirms it (`confirmedInPrint`, visual-zone.ts), then its CONFIRMED_DOUBT (info).
 */
export function mrzDoubts(mrz: Pick<MrzReading, 'checkDigitRepairs' | 'uncertainCharacters'>, confirmedInPrint: readonly VisualField[]): Finding[] {
  // Signals stored before round 7 have no uncertainCharacters.
  const doubts: { code: keyof typeof CONFIRMED_DOUBT; detail: string }[] = [
    ...mrz.checkDigitRepairs.map((field) => ({ code: 'mrz_repaired_by_check_digit' as const, detail: field })),
    ...(mrz.uncertainCharacters ?? []).map((field) => ({ code: 'mrz_uncertain_character' as const, detail: field })),
  ];
  const doubted = new Set(doubts.map((doubt) => doubt.detail));
  // Round 27 review: a date is confirmed by any date the page prints, and an issue date shares the expiry's day and
  // month: a date whose own check digit is in doubt too (two characters no check digit vouches for) is not confirmed.
  const unconfirmable = (field: string) => {
    const date = field.replace(/CheckDigit$/, '');
    return (date === 'birthDate' || date === 'expirationDate') && doubted.has(date) && doubted.has(`${date}CheckDigit`);
  };
  return doubts.map((doubt) => {
    const by = CONFIRMED_BY[doubt.detail];
    return by && confirmedInPrint.includes(by) && !unconfirmable(doubt.detail) ? { code: CONFIRMED_DOUBT[doubt.code], detail: doubt.detail } : doubt;
  });
}

function mrzFindings(signals: KycSignals, now: Date): Finding[] {
  const { mrz, nameMatch, type } = signals.documentReading;
  if (!mrz) return [{ code: 'mrz_not_found' }];
  const found: Finding[] = [];
  for (const field of mrz.invalidFields) {
    found.push({ code: field.endsWith('CheckDigit') ? 'mrz_check_digit_invalid' : 'mrz_field_invalid', detail: field });
  }
  for (const field of mrz.corrections) found.push({ code: 'mrz_corrected', detail: field });
  found.push(...mrzDoubts(mrz, signals.documentReading.confirmedInPrint ?? []));
  for (const field of mrz.stateRepairs) found.push({ code: 'mrz_state_code_repaired', detail: field });
  for (const field of VISUAL_FIELDS) {
    if (signals.documentReading.visualZone?.[field] === 'mismatch') found.push({ code: 'visual_zone_mismatch', detail: field });
  }
  const other = signals.documentReading.otherDocument;
  if (other && !other.sameHolder) found.push({ code: 'other_person_document_in_photo', detail: other.format });
  const code = mrz.documentCode ?? '';
  // A visa (V) is no identity document; a licence's MRZ is neither a passport's nor a visa's.
  const expectedCode = type === 'passport' ? /^P/ : type === 'national_id' ? /^[IAC]/ : /^[A-OQ-UW-Z]/;
  if (code && !expectedCode.test(code)) found.push({ code: 'document_type_mismatch' });

  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const expiry = mrz.expiryDate ? Date.parse(mrz.expiryDate) : NaN;
  const birth = mrz.birthDate ? Date.parse(mrz.birthDate) : NaN;
  if (Number.isNaN(expiry)) found.push({ code: 'expiry_date_unreadable' });
  else if (expiry < today) found.push({ code: 'document_expired' });
  else if (expiry > today + THRESHOLDS.maxValidityYears * 365.25 * DAY_MS) found.push({ code: 'expiry_date_implausible' });
  if (Number.isNaN(birth)) found.push({ code: 'birth_date_unreadable' });
  else if (birth > today || birth < today - THRESHOLDS.maxAgeYears * 365.25 * DAY_MS) found.push({ code: 'birth_date_implausible' });
  if (!Number.isNaN(birth) && !Number.isNaN(expiry) && birth >= expiry) found.push({ code: 'dates_inconsistent' });
  found.push(...nameFindings(nameMatch?.score ?? null));
  return found;
}

function textFindings(signals: KycSignals, now: Date): Finding[] {
  const { text, type } = signals.documentReading;
  if (!text || text.characters < 20) return [{ code: 'text_unreadable' }];
  const found = nameFindings(text.nameScore);
  if (type === 'proof_of_address') {
    if (!text.address) found.push({ code: 'address_not_found' });
    if (!text.issueDate) found.push({ code: 'issue_date_not_found' });
    else if (now.getTime() - Date.parse(text.issueDate) > THRESHOLDS.proofOfAddressMaxAgeDays * DAY_MS) {
      found.push({ code: 'document_older_than_3_months' });
    }
  }
  return found;
}

function documentFindings(input: KycDecisionInput, now: Date): Finding[] {
  const { signals } = input;
  const readValid = signals.documentReading.mrz?.valid === true;
  const found = [...imageFindings(signals.document, 'document', readValid), ...provenanceFindings(signals.document, now)];
  if ((input.reusedDocumentCheckIds?.length ?? 0) > 0) found.push({ code: 'document_image_reused' });
  if (input.environment === 'live' && signals.documentReading.specimenMarks.length > 0) found.push({ code: 'specimen_document' });
  // An unusable image was not read: its quality reasons say why, reading findings would only add noise.
  if (found.some((f) => f.code === 'image_too_small' || f.code === 'image_blank')) return found;
  const reading = signals.documentReading;
  const usesMrz = reading.mrz !== null || reading.text === null;
  return [...found, ...(usesMrz ? mrzFindings(signals, now) : textFindings(signals, now))];
}

function selfieFindings(signals: KycSignals, now: Date): Finding[] {
  const found = [...imageFindings(signals.selfie, 'selfie'), ...provenanceFindings(signals.selfie, now)];
  const face = signals.face;
  if (face.selfieFaces === 0) found.push({ code: 'no_face_detected' });
  if (face.selfieFaces > 1) found.push({ code: 'multiple_faces' });
  if (face.selfieReal !== null && face.selfieReal < THRESHOLDS.spoofMinReal) found.push({ code: 'spoof_suspected' });
  if (face.selfieLive !== null && face.selfieLive < THRESHOLDS.livenessMin) found.push({ code: 'liveness_low' });
  return found;
}

function faceMatchFindings(signals: KycSignals): Finding[] {
  const face = signals.face;
  if (face.documentFaces === 0) return [{ code: 'no_face_on_document' }];
  if (face.similarity === null || face.selfieFaces !== 1) return [{ code: 'face_not_comparable' }];
  if (face.similarity >= THRESHOLDS.faceMatchPass) return [];
  return [{ code: face.similarity >= THRESHOLDS.faceMatchReview ? 'face_similarity_low' : 'face_mismatch' }];
}

function amlFindings(aml: AmlOutcome): Finding[] {
  if (aml.status === 'potential_match') return [{ code: 'aml_potential_match' }];
  if (aml.status === 'unavailable') return [{ code: 'aml_lists_unavailable' }];
  return [];
}

const RESULT_ORDER: CheckResult[] = ['passed', 'review', 'failed'];
const RISK_ORDER: RiskLevel[] = ['low', 'medium', 'high'];
const worst = <T>(order: T[], values: T[]): T => order[Math.max(0, ...values.map((v) => order.indexOf(v)))]!;

function resultOf(findings: Finding[]): CheckResult {
  return worst(RESULT_ORDER, findings.map((f) => {
    const effect: Effect = REASONS[f.code].effect;
    return effect === 'info' ? 'passed' : effect;
  }));
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

function evidence(name: CheckName, signals: KycSignals): number {
  if (name === 'face_match' && signals.face.similarity !== null) {
    const span = THRESHOLDS.faceMatchFullEvidence - THRESHOLDS.faceMatchPass;
    return clamp01((signals.face.similarity - THRESHOLDS.faceMatchPass) / span);
  }
  if (name === 'document') {
    const score = signals.documentReading.nameMatch?.score ?? signals.documentReading.text?.nameScore ?? null;
    if (score !== null) return clamp01((score - THRESHOLDS.namePass) / (1 - THRESHOLDS.namePass));
  }
  return 1;
}

function confidence(name: CheckName, findings: Finding[], signals: KycSignals): number {
  const result = resultOf(findings);
  if (result === 'failed') return 0.1;
  if (result === 'review') return 0.5;
  const informational = findings.filter((f) => REASONS[f.code].effect === 'info').length;
  return 0.85 + 0.15 * evidence(name, signals) - 0.05 * informational;
}

export function decideKyc(input: KycDecisionInput): KycDecision {
  const { signals, aml } = input;
  const now = new Date(signals.analysedAt);
  const findings = new Map<CheckName, Finding[]>([
    ['document', documentFindings(input, now)],
    ['selfie', selfieFindings(signals, now)],
  ]);
  if (signals.face.documentFaces !== null) findings.set('face_match', faceMatchFindings(signals));
  if (aml.screened) findings.set('aml', amlFindings(aml));

  const scenario = input.environment === 'sandbox' ? findSandboxScenario(input.reference) : null;
  if (scenario) {
    const { check, reason } = scenario.effect;
    findings.set(check, [...(findings.get(check) ?? []), { code: reason }]);
  }

  const checks: KycCheck[] = [];
  let score = 1;
  for (const [name, list] of findings) {
    const reasons = [...new Set(list.map((f) => (f.detail ? `${f.code}:${f.detail}` : f.code)))];
    checks.push({ name, result: resultOf(list), reasons });
    score = Math.min(score, confidence(name, list, signals));
  }
  const all = [...findings.values()].flat();
  return {
    status: worst(RESULT_ORDER, checks.map((c) => c.result)),
    riskLevel: worst(RISK_ORDER, all.map((f) => REASONS[f.code].risk)),
    score: Math.round(score * 100) / 100,
    checks,
    scenario: scenario?.reference ?? null,
  };
}
