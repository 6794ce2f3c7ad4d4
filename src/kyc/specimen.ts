// Specimen documents: sample pages that states, ICAO and this project publish. They read perfectly and match their
// own portrait, so only knowing them keeps them from passing a live check. Measurements only; decision.ts decides.
import { hammingDistance, SAME_IMAGE_MAX_DISTANCE } from './hash.ts';
import type { MrzReading } from './mrz.ts';

/** What marks a document as a specimen. */
export type SpecimenMark = 'specimen_state' | 'specimen_document_number' | 'specimen_image' | 'specimen_word';

/** Document numbers of published specimens. */
const SPECIMEN_DOCUMENT_NUMBERS = new Set([
  'XA4186275', // examples/kyc/passport.jpg, this project's specimen (scripts/make-kyc-specimen.ts)
  'L898902C3', // ICAO 9303 part 4, TD3 passport example
  'D23145890', // ICAO 9303 parts 5 and 6, TD1 and TD2 card examples
  'C01X00T47', // German passport specimen (Erika Mustermann)
  'T22000129', // German identity card specimen (Erika Mustermann)
  'SPECI2014', // Dutch passport and identity card specimens
]);

/** dHash of each specimen image the project ships (examples/kyc/passport.jpg), as `differenceHash` gives it. */
export const SPECIMEN_IMAGE_HASHES = ['9a94848485e2a0c2'];

/** SPECIMEN as OCR reads it: words run together, I sometimes read as 1 or L. Capitals only, as stamped. */
const SPECIMEN_WORD = /SPEC[I1L]MEN/;

export interface SpecimenEvidence {
  mrz: MrzReading | null;
  /** Every text read on the page. */
  texts: string[];
  perceptualHash: string;
}

export function specimenMarks({ mrz, texts, perceptualHash }: SpecimenEvidence): SpecimenMark[] {
  const marks: SpecimenMark[] = [];
  if (mrz?.specimen) marks.push('specimen_state');
  if (mrz?.documentNumber && SPECIMEN_DOCUMENT_NUMBERS.has(mrz.documentNumber.replace(/</g, ''))) marks.push('specimen_document_number');
  if (SPECIMEN_IMAGE_HASHES.some((hash) => hammingDistance(hash, perceptualHash) <= SAME_IMAGE_MAX_DISTANCE)) marks.push('specimen_image');
  if (texts.some((text) => SPECIMEN_WORD.test(text))) marks.push('specimen_word');
  return marks;
}
