import { describe, expect, it } from 'vitest';
import { decideKyc, REASONS, THRESHOLDS, type AmlOutcome, type KycDecisionInput } from '../../src/kyc/decision.ts';
import { findSandboxScenario, SANDBOX_SCENARIOS } from '../../src/kyc/scenarios.ts';
import type { ImageSignals, KycSignals } from '../../src/kyc/types.ts';

const image = (field: 'documentImage' | 'selfieImage'): ImageSignals => ({
  field,
  format: 'jpeg',
  byteLength: 150_000,
  sha256: 'a'.repeat(64),
  width: 1250,
  height: 880,
  quality: { shortSide: 880, region: 'content', faceWidth: null, meanLuma: 180, medianLuma: 200, stdLuma: 60, laplacianVariance: 2000, glareCellShare: 0 },
  provenance: { software: null, capturedAt: null, modifiedAt: null, cameraMake: null },
});

/** Signals of a clean passport check, as the engine measures the specimen. */
function passing(): KycSignals {
  return {
    version: 1,
    analysedAt: '2026-06-01T12:00:00.000Z',
    documentType: 'passport',
    document: image('documentImage'),
    selfie: image('selfieImage'),
    documentReading: {
      type: 'passport',
      mrz: {
        format: 'TD3',
        lines: [],
        valid: true,
        invalidFields: [],
        corrections: [],
        checkDigitRepairs: [],
        stateRepairs: [],
        uncertainCharacters: [],
        specimen: false,
        documentCode: 'P',
        issuingState: 'SWE',
        documentNumber: 'XA4186275',
        nationality: 'SWE',
        lastName: 'ERIKSSON',
        firstName: 'ANNA MARIA',
        birthDate: '1974-08-12',
        expiryDate: '2034-03-15',
        sex: 'female',
        personalNumber: '',
      },
      nameMatch: { score: 1, surnameScore: 1, givenNamesScore: 1 },
      text: null,
      visualZone: { documentNumber: 'match', surname: 'match', givenNames: 'match', birthDate: 'match', expiryDate: 'unread' },
      perceptualHash: '0123456789abcdef',
      specimenMarks: [],
    },
    face: { selfieFaces: 1, documentFaces: 1, selfieFaceScore: 0.95, documentFaceScore: 0.93, similarity: 0.99, selfieReal: 0.45, selfieLive: 1 },
    timings: { qualityMs: 1, ocrMs: 1, faceMs: 1 },
  };
}

const CLEAR: AmlOutcome = { screened: true, status: 'clear', matches: [] };
const HIT: AmlOutcome = { screened: true, status: 'potential_match', matches: [{ entityId: 'ofac-1', score: 0.97 }] };
const UNAVAILABLE: AmlOutcome = { screened: true, status: 'unavailable', matches: [] };

const decide = (patch: (s: KycSignals) => void = () => {}, extra: Partial<KycDecisionInput> = {}) => {
  const signals = passing();
  patch(signals);
  return decideKyc({ signals, aml: CLEAR, environment: 'live', ...extra });
};

describe('decideKyc', () => {
  it('passes clean signals with low risk and a high score', () => {
    const d = decide();
    expect(d).toMatchObject({ status: 'passed', riskLevel: 'low', scenario: null });
    expect(d.score).toBeGreaterThanOrEqual(0.95);
    expect(d.checks.map((c) => c.name)).toEqual(['document', 'selfie', 'face_match', 'aml']);
  });

  it('is deterministic', () => {
    expect(decide()).toEqual(decide());
  });

  it('never passes an AML potential match, and rates it high risk', () => {
    const d = decide(undefined, { aml: HIT });
    expect(d.status).toBe('review');
    expect(d.riskLevel).toBe('high');
    expect(d.checks.find((c) => c.name === 'aml')).toEqual({ name: 'aml', result: 'review', reasons: ['aml_potential_match'] });
  });

  it('sends the check to review when lists are unavailable', () => {
    const d = decide(undefined, { aml: UNAVAILABLE });
    expect(d.status).toBe('review');
    expect(d.checks.find((c) => c.name === 'aml')?.reasons).toEqual(['aml_lists_unavailable']);
  });

  it('reports no AML check when screening is switched off', () => {
    const d = decide(undefined, { aml: { screened: false, status: 'clear', matches: [] } });
    expect(d.status).toBe('passed');
    expect(d.checks.map((c) => c.name)).not.toContain('aml');
  });

  it('maps face similarity through the calibrated bands', () => {
    const { faceMatchPass: pass, faceMatchReview: review } = THRESHOLDS;
    expect(decide((s) => void (s.face.similarity = pass)).status).toBe('passed');
    expect(decide((s) => void (s.face.similarity = (pass + review) / 2)).status).toBe('review');
    expect(decide((s) => void (s.face.similarity = review - 0.001)).status).toBe('failed');
    expect(decide((s) => void (s.face.similarity = pass)).score).toBeLessThan(decide().score);
  });

  it('keeps liveness and anti-spoof as weak signals: noted, never failing on their own', () => {
    const d = decide((s) => {
      s.face.selfieReal = 0.05;
      s.face.selfieLive = 0.1;
    });
    expect(d.status).toBe('passed');
    expect(d.riskLevel).toBe('medium');
    expect(d.checks.find((c) => c.name === 'selfie')?.reasons).toEqual(['spoof_suspected', 'liveness_low']);
    expect(d.score).toBeLessThan(decide().score);
  });

  it('never passes a field repaired by its check digit without a human look', () => {
    const d = decide((s) => void (s.documentReading.mrz!.checkDigitRepairs = ['documentNumber']));
    expect(d.status).toBe('review');
    expect(d.checks[0]!.reasons).toEqual(['mrz_repaired_by_check_digit:documentNumber']);
  });

  it("never passes plainly when another person's document was read in the same photo; the same holder's second document is no reason", () => {
    const d = decide((s) => void (s.documentReading.otherDocument = { format: 'TD1', documentCode: 'I', sameHolder: false }));
    expect(d.status).toBe('review');
    expect(d.checks[0]!.reasons).toEqual(['other_person_document_in_photo:TD1']);
    expect(decide((s) => void (s.documentReading.otherDocument = { format: 'TD1', documentCode: 'I', sameHolder: true })).status).toBe('passed');
  });

  it('never passes a state code repaired from a look-alike without a human look (no check digit covers it)', () => {
    const d = decide((s) => void (s.documentReading.mrz!.stateRepairs = ['nationality']));
    expect(d.status).toBe('review');
    expect(d.checks[0]!.reasons).toEqual(['mrz_state_code_repaired:nationality']);
  });

  it('never passes a number holding a character no check digit tells from its look-alike, read with low confidence', () => {
    const d = decide((s) => void (s.documentReading.mrz!.uncertainCharacters = ['documentNumber']));
    expect(d.status).toBe('review');
    expect(d.checks[0]!.reasons).toEqual(['mrz_uncertain_character:documentNumber']);
  });

  it('passes a repaired or doubted number the printed page shows exactly, and says so; other repairs stay in review', () => {
    const confirmed = decide((s) => {
      s.documentReading.mrz!.checkDigitRepairs = ['documentNumber', 'documentNumberCheckDigit'];
      s.documentReading.mrz!.uncertainCharacters = ['documentNumber'];
      s.documentReading.confirmedInPrint = ['documentNumber'];
    });
    expect(confirmed.status).toBe('passed');
    // The passed reading still says a check digit chose the number and a character of it was doubted.
    expect(confirmed.checks[0]!.reasons).toEqual([
      'mrz_repair_confirmed_by_print:documentNumber',
      'mrz_repair_confirmed_by_print:documentNumberCheckDigit',
      'mrz_uncertain_character_confirmed_by_print:documentNumber',
    ]);
    expect(confirmed.score).toBeLessThan(decide().score);
    const composite = decide((s) => {
      s.documentReading.mrz!.checkDigitRepairs = ['documentNumber', 'compositeCheckDigit'];
      s.documentReading.confirmedInPrint = ['documentNumber'];
    });
    expect(composite.status).toBe('review');
    expect(composite.checks[0]!.reasons).toEqual(['mrz_repair_confirmed_by_print:documentNumber', 'mrz_repaired_by_check_digit:compositeCheckDigit']);
    const date = decide((s) => {
      s.documentReading.mrz!.checkDigitRepairs = ['birthDate', 'expirationDateCheckDigit'];
      s.documentReading.confirmedInPrint = ['birthDate', 'expiryDate'];
    });
    expect(date.checks[0]!.reasons).toEqual(['mrz_repair_confirmed_by_print:birthDate', 'mrz_repair_confirmed_by_print:expirationDateCheckDigit']);
    expect(date.status).toBe('passed');
    const unconfirmed = decide((s) => {
      s.documentReading.mrz!.checkDigitRepairs = ['documentNumber'];
      s.documentReading.confirmedInPrint = [];
    });
    expect(unconfirmed.status).toBe('review');
    // A date and its own check digit both in doubt: the page's dates (an issue date on the expiry's day and month) do
    // not vouch for two characters (round 27 review); the number and its check digit still do.
    const dateAndItsDigit = decide((s) => {
      s.documentReading.mrz!.checkDigitRepairs = ['expirationDate', 'expirationDateCheckDigit'];
      s.documentReading.confirmedInPrint = ['documentNumber', 'birthDate', 'expiryDate'];
    });
    expect(dateAndItsDigit.status).toBe('review');
    expect(dateAndItsDigit.checks[0]!.reasons).toEqual(['mrz_repaired_by_check_digit:expirationDate', 'mrz_repaired_by_check_digit:expirationDateCheckDigit']);
    // A confirmed number does not outweigh a page that shows another date (round 27 review).
    const altered = decide((s) => {
      s.documentReading.mrz!.checkDigitRepairs = ['documentNumber'];
      s.documentReading.confirmedInPrint = ['documentNumber'];
      s.documentReading.visualZone = { documentNumber: 'match', surname: 'match', givenNames: 'unread', birthDate: 'mismatch', expiryDate: 'unread' };
    });
    expect(altered.status).toBe('review');
    expect(altered.checks[0]!.reasons).toEqual(['mrz_repair_confirmed_by_print:documentNumber', 'visual_zone_mismatch:birthDate']);
  });

  it('never passes a printed page that shows another number, name or date than the MRZ; unread fields change nothing', () => {
    const altered = decide((s) => {
      s.documentReading.visualZone = { documentNumber: 'mismatch', surname: 'match', givenNames: 'unread', birthDate: 'mismatch', expiryDate: 'unread' };
    });
    expect(altered).toMatchObject({ status: 'review', riskLevel: 'high' });
    expect(altered.checks[0]).toEqual({ name: 'document', result: 'review', reasons: ['visual_zone_mismatch:documentNumber', 'visual_zone_mismatch:birthDate'] });
    for (const visualZone of [null, { documentNumber: 'unread', surname: 'unread', givenNames: 'unread', birthDate: 'unread', expiryDate: 'unread' } as const]) {
      const unread = decide((s) => void (s.documentReading.visualZone = visualZone));
      expect(unread).toEqual(decide());
    }
  });

  it('flags editing software, EXIF dates and a reused document image for review', () => {
    const edited = decide((s) => void (s.document.provenance.software = 'Adobe Photoshop 25.0'));
    expect(edited.status).toBe('review');
    expect(edited.checks[0]!.reasons).toEqual(['edited_with_software']);
    const modified = decide((s) => {
      s.document.provenance.capturedAt = '2026-05-01T10:00:00';
      s.document.provenance.modifiedAt = '2026-05-03T10:00:00';
    });
    expect(modified.checks[0]!.reasons).toEqual(['exif_modified_after_capture']);
    const future = decide((s) => void (s.selfie.provenance.capturedAt = '2027-01-01T00:00:00'));
    expect(future.checks[1]!.reasons).toEqual(['exif_date_in_future']);
    const reused = decide(undefined, { reusedDocumentCheckIds: ['chk_earlier'] });
    expect(reused.checks[0]!.reasons).toEqual(['document_image_reused']);
  });

  it('fails a specimen document with a live key and leaves test keys as they were', () => {
    const markAsSpecimen = (s: KycSignals) => void (s.documentReading.specimenMarks = ['specimen_document_number']);
    const live = decide(markAsSpecimen);
    expect(live).toMatchObject({ status: 'failed', riskLevel: 'high', score: 0.1 });
    expect(live.checks[0]).toEqual({ name: 'document', result: 'failed', reasons: ['specimen_document'] });
    const sandbox = decide(markAsSpecimen, { environment: 'sandbox' });
    expect(sandbox).toEqual(decide(undefined, { environment: 'sandbox' }));
    expect(sandbox).toMatchObject({ status: 'passed', riskLevel: 'low' });
  });

  it('fails implausible and inconsistent MRZ dates', () => {
    const future = decide((s) => void (s.documentReading.mrz!.birthDate = '2030-01-01'));
    expect(future.checks[0]!.reasons).toEqual(expect.arrayContaining(['birth_date_implausible']));
    const farExpiry = decide((s) => void (s.documentReading.mrz!.expiryDate = '2060-01-01'));
    expect(farExpiry.checks[0]!.reasons).toEqual(['expiry_date_implausible']);
    const unreadable = decide((s) => void (s.documentReading.mrz!.expiryDate = null));
    expect(unreadable.checks[0]!.reasons).toEqual(['expiry_date_unreadable']);
  });

  it('accepts an ICAO specimen (UTO) document with test keys only', () => {
    // As the engine measures it: the parser marks UTO, and the reading then carries the specimen_state mark.
    const specimen = (s: KycSignals) => {
      s.documentReading.mrz!.specimen = true;
      s.documentReading.specimenMarks = ['specimen_state'];
    };
    expect(decide(specimen).status).toBe('failed');
    expect(decide(specimen).checks[0]!.reasons).toContain('specimen_document');
    expect(decide(specimen, { environment: 'sandbox' }).status).toBe('passed');
  });

  it('notes repaired MRZ fields without failing on them', () => {
    const d = decide((s) => void (s.documentReading.mrz!.corrections = ['documentNumber']));
    expect(d.status).toBe('passed');
    expect(d.checks[0]!.reasons).toEqual(['mrz_corrected:documentNumber']);
    expect(d.score).toBeLessThan(decide().score);
  });

  it('refuses a small document image only when its MRZ could not be read valid', () => {
    const small = (side: number, valid: boolean) => (s: KycSignals) => {
      s.document.quality.shortSide = side;
      s.documentReading.mrz!.valid = valid;
      if (!valid) s.documentReading.mrz!.invalidFields = ['compositeCheckDigit'];
    };
    expect(decide(small(300, true)).status).toBe('passed');
    expect(decide(small(300, false)).checks[0]!.reasons).toEqual(['image_too_small']);
    expect(decide(small(100, true)).checks[0]!.reasons).toEqual(['image_too_small']);
  });

  it('reviews a document whose MRZ code is not the declared type', () => {
    const d = decide((s) => {
      s.documentType = 'national_id';
      s.documentReading.type = 'national_id';
    });
    expect(d.checks[0]!.reasons).toEqual(['document_type_mismatch']);
    const visaAsLicence = decide((s) => {
      s.documentType = 'driving_licence';
      s.documentReading.type = 'driving_licence';
      s.documentReading.mrz!.documentCode = 'V';
    });
    expect(visaAsLicence.checks[0]!.reasons).toEqual(['document_type_mismatch']);
  });

  it('requires a name to compare', () => {
    const d = decide((s) => void (s.documentReading.nameMatch = null));
    expect(d.status).toBe('review');
    expect(d.checks[0]!.reasons).toEqual(['name_not_provided']);
  });

  it('gives every reason a known effect', () => {
    for (const scenario of SANDBOX_SCENARIOS) expect(REASONS[scenario.effect.reason]).toBeDefined();
  });
});

describe('sandbox scenarios', () => {
  it('match the reference exactly or with a ":" suffix', () => {
    expect(findSandboxScenario('kyx_sandbox_review')?.reference).toBe('kyx_sandbox_review');
    expect(findSandboxScenario('kyx_sandbox_review:order-42')?.reference).toBe('kyx_sandbox_review');
    expect(findSandboxScenario('kyx_sandbox_reviewer')).toBeNull();
    expect(findSandboxScenario('order-42')).toBeNull();
    expect(findSandboxScenario(undefined)).toBeNull();
  });

  it('force their outcome in the sandbox and do nothing with a live key', () => {
    for (const scenario of SANDBOX_SCENARIOS) {
      const sandbox = decide(undefined, { environment: 'sandbox', reference: scenario.reference });
      expect(sandbox.status, scenario.reference).not.toBe('passed');
      expect(sandbox.scenario).toBe(scenario.reference);
      const check = sandbox.checks.find((c) => c.name === scenario.effect.check);
      expect(check?.reasons).toContain(scenario.effect.reason);
      expect(decide(undefined, { environment: 'live', reference: scenario.reference }).status).toBe('passed');
    }
  });

  it('cannot turn an unusable image or a sanctions hit into a pass', () => {
    for (const scenario of SANDBOX_SCENARIOS) {
      const blank = decide((s) => void (s.selfie.quality.stdLuma = 0), { environment: 'sandbox', reference: scenario.reference });
      expect(blank.status).toBe('failed');
      const hit = decide(undefined, { environment: 'sandbox', reference: scenario.reference, aml: HIT });
      expect(hit.status).not.toBe('passed');
      expect(hit.riskLevel).toBe('high');
    }
  });
});
