// Shapes shared by the KYC engine, its worker and the decision rule. KycSignals is what the route stores next to
// the result (and what RPT-001 reads): measurements only, no raw images.
import type { DecodedImage } from './intake.ts';
import type { MrzFormat, MrzReading } from './mrz.ts';
import type { NameMatch } from './names.ts';
import type { QualityMeasures } from './quality.ts';
import type { SpecimenMark } from './specimen.ts';
import type { VisualField, VisualZoneComparison } from './visual-zone.ts';

export const DOCUMENT_TYPES = ['passport', 'national_id', 'driving_licence', 'proof_of_address'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
/** Types whose MRZ is read; a driving licence without one falls back to its printed text. */
export const MRZ_DOCUMENT_TYPES: readonly DocumentType[] = ['passport', 'national_id', 'driving_licence'];

export interface KycMetadata {
  firstName?: string;
  lastName?: string;
  reference?: string;
  source?: string;
}

export interface AnalyseInput {
  documentType: DocumentType;
  document: DecodedImage;
  selfie: DecodedImage;
  metadata: KycMetadata;
  /** ISO timestamp the dates are judged against (expiry, issue date within three months). */
  now: string;
}

/** What is kept of a decoded image: everything but its pixels and bytes, plus the quality measured on them. */
export interface ImageSignals extends Omit<DecodedImage, 'pixels' | 'encoded'> {
  quality: QualityMeasures;
}

export interface TextReading {
  /** How well metadata's name appears in the text, 0–1; null when metadata has no name. */
  nameScore: number | null;
  address: string | null;
  dates: string[];
  /** Latest date on the document that is not in the future. */
  issueDate: string | null;
  /** Non-space characters read, to tell "no text" from "text without the name". */
  characters: number;
}

export interface DocumentSignals {
  type: DocumentType;
  mrz: MrzReading | null;
  /** MRZ name against metadata; null without MRZ or without a name in metadata. */
  nameMatch: NameMatch | null;
  /** Printed-text reading (driving licence without MRZ, proof of address). */
  text: TextReading | null;
  /** The valid MRZ's values looked for on the printed page (visual-zone.ts): outcomes only; null without a valid MRZ. */
  visualZone: VisualZoneComparison | null;
  /**
   * Round 27: the fields of the valid MRZ the printed page shows character for character, confidently
   * (visual-zone.ts confirmedInPrint); a repair or doubt of such a field does not send the check to review. Absent
   * from signals stored before round 27.
   */
  confirmedInPrint?: VisualField[];
  /**
   * A second document whose MRZ read valid in the same photo (analyse.ts readApplicantMrz); null when none was (and
   * absent from signals stored before round 22).
   */
  otherDocument?: OtherDocument | null;
  /** 64-bit dHash (16 hex digits) of the document image, for reuse detection across a tenant's checks. */
  perceptualHash: string;
  /** Why the document is a known specimen (ICAO specimen state, known number or image, SPECIMEN printed); empty if not. */
  specimenMarks: SpecimenMark[];
}

/** A second document's valid MRZ read in the same photo as the applicant's: what a reviewer needs to know about it. */
export interface OtherDocument {
  format: MrzFormat;
  documentCode: string | null;
  /** Same name (decision.ts THRESHOLDS.namePass) and birth date as the document taken for the applicant's. */
  sameHolder: boolean;
}

export interface FaceSignals {
  selfieFaces: number;
  /** null for documents that carry no portrait (proof of address). */
  documentFaces: number | null;
  selfieFaceScore: number | null;
  documentFaceScore: number | null;
  /** Cosine similarity of the descriptors (KYC_DESCRIPTORS) of the selfie's and the document's (largest) faces. */
  similarity: number | null;
  /** Weak signals from the anti-spoof and liveness models. */
  selfieReal: number | null;
  selfieLive: number | null;
}

export interface KycSignals {
  version: 1;
  analysedAt: string;
  documentType: DocumentType;
  document: ImageSignals;
  selfie: ImageSignals;
  documentReading: DocumentSignals;
  face: FaceSignals;
  timings: { qualityMs: number; ocrMs: number; faceMs: number };
}
