// Request and response schemas of POST /api/v1/kyc/verify and GET /api/v1/kyc/checks[/{checkId}]. The schema
// fixes the shape; whether an image is really a decodable image is decided by the engine's intake (400 naming
// the field).
import { Type, type Static, type TSchema } from 'typebox';
import { Review } from '../reviews/schemas.ts';
import { THRESHOLDS } from './decision.ts';
import { DEFAULT_IMAGE_LIMITS, DOCUMENT_TYPES } from './index.ts';

/** Base64 of the decoded-size limit, plus room for a data-URL prefix and line breaks. */
const MAX_IMAGE_CHARS = Math.ceil((DEFAULT_IMAGE_LIMITS.maxBytes / 3) * 4 * 1.03) + 100;

const ImageField = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: MAX_IMAGE_CHARS,
    description: `${what}: base64 of a JPEG, PNG or WebP (a data:image/…;base64, prefix is tolerated), at most ${DEFAULT_IMAGE_LIMITS.maxBytes} bytes decoded`,
  });

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const KycMetadata = Type.Object(
  {
    firstName: Name('Given names, in any script (compared with the document, transliteration-aware, and screened)'),
    lastName: Name('Surname, in any script'),
    reference: Type.Optional(
      Type.String({ maxLength: 200, description: "Your reference; with a test key, a sandbox scenario value (GET /api/v1/sandbox/scenarios)" }),
    ),
    source: Type.Optional(Type.String({ maxLength: 200, description: 'Where the applicant came from (your label)' })),
  },
  { additionalProperties: false },
);
export type KycMetadata = Static<typeof KycMetadata>;

export const KycVerifyRequest = Type.Object(
  {
    documentType: Type.Union(
      DOCUMENT_TYPES.map((type) => Type.Literal(type)),
      { description: 'passport, national_id, driving_licence or proof_of_address' },
    ),
    documentImage: ImageField('The document page'),
    selfieImage: ImageField('A selfie of the applicant'),
    metadata: KycMetadata,
    amlScreening: Type.Optional(Type.Boolean({ default: true, description: 'Screen the name against the sanctions lists (default true)' })),
  },
  { additionalProperties: false },
);
export type KycVerifyRequest = Static<typeof KycVerifyRequest>;

const Outcome = Type.Union([Type.Literal('passed'), Type.Literal('review'), Type.Literal('failed')]);
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const KycCheckEntry = Type.Object({
  name: Type.String({ description: 'document, selfie, face_match, aml or sandbox_scenario' }),
  result: Outcome,
  reasons: Type.Array(Type.String(), { description: 'Reason codes; a suffix after ":" names the field (mrz_check_digit_invalid:birthDate)' }),
});

const AmlMatch = Type.Object({
  entityId: Type.String(),
  name: Type.String({ description: "The entity's primary listed name" }),
  matchedName: Type.String({ description: 'The listed name or alias that matched' }),
  score: Type.Number(),
  lists: Type.Array(Type.String()),
  programs: Type.Array(Type.String()),
  reasons: Type.Array(Type.String()),
});

const ListVersion = Type.Object({
  name: Type.String(),
  versionDate: Nullable(Type.String()),
  sha256: Type.String(),
  entityCount: Type.Integer(),
});

const KycAml = Type.Object({
  screened: Type.Boolean({ description: 'false when amlScreening was false' }),
  status: Type.Optional(Type.Union([Type.Literal('clear'), Type.Literal('potential_match'), Type.Literal('unavailable')])),
  matches: Type.Array(AmlMatch),
  listsVersion: Type.Optional(Type.String({ description: 'Identifier of the set of list versions screened against' })),
  lists: Type.Optional(Type.Array(ListVersion)),
});

const MrzFields = Type.Object({
  format: Type.String({ description: 'TD1, TD2 or TD3' }),
  valid: Type.Boolean({ description: 'Every field well formed and every check digit matches' }),
  invalidFields: Type.Array(Type.String()),
  documentCode: Nullable(Type.String()),
  issuingState: Nullable(Type.String()),
  documentNumber: Nullable(Type.String()),
  nationality: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  firstName: Nullable(Type.String()),
  birthDate: Nullable(Type.String()),
  expiryDate: Nullable(Type.String()),
  sex: Nullable(Type.String()),
  personalNumber: Nullable(Type.String()),
});

const VisualFieldResult = Type.Union([Type.Literal('match'), Type.Literal('mismatch'), Type.Literal('unread')]);

const VisualZone = Type.Object(
  {
    documentNumber: VisualFieldResult,
    surname: VisualFieldResult,
    givenNames: VisualFieldResult,
    birthDate: VisualFieldResult,
    expiryDate: VisualFieldResult,
  },
  { description: 'Each MRZ value looked for on the printed page: match, mismatch (another value clearly printed in its place) or unread' },
);

const KycDocument = Type.Object({
  mrz: Nullable(MrzFields),
  visualZone: Type.Optional(Nullable(VisualZone)),
  nameMatchScore: Nullable(Type.Number({ description: 'MRZ or printed name against metadata, 0–1' })),
  address: Nullable(Type.String({ description: 'Address line read from a proof of address' })),
  issueDate: Nullable(Type.String({ description: 'Issue date read from a proof of address' })),
  perceptualHash: Type.String({ description: '64-bit dHash of the document image (hex)' }),
});

const KycFace = Type.Object({
  selfieFaces: Type.Integer(),
  documentFaces: Nullable(Type.Integer()),
  similarity: Nullable(
    Type.Number({ description: `Face-match score: cosine similarity of the two faces' descriptors, pass at ${THRESHOLDS.faceMatchPass}` }),
  ),
});

export const KycCheckResult = Type.Object(
  {
    review: Type.Optional(Review),
    checkId: Type.String({ description: 'chk_…' }),
    status: Outcome,
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Higher means more confidence the identity is genuine' }),
    riskLevel: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
    reportUrl: Type.String({ format: 'uri', description: 'The RPT-001 PDF of the check' }),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Type.String({ format: 'date-time' }),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
    documentType: Type.String(),
    metadata: KycMetadata,
    checks: Type.Array(KycCheckEntry),
    aml: KycAml,
    document: KycDocument,
    face: KycFace,
    imageHashes: Type.Object(
      { document: Type.String(), selfie: Type.String() },
      { description: 'SHA-256 (hex) of each image as received, decoded from base64' },
    ),
    sandboxScenario: Nullable(Type.String({ description: 'The sandbox scenario applied (test keys only)' })),
    reusedDocumentCheckIds: Type.Array(Type.String(), { description: 'Earlier live checks of this tenant with the same document image' }),
  },
  { additionalProperties: false },
);
export type KycCheckResult = Static<typeof KycCheckResult>;

export const KycCheckParams = Type.Object({ checkId: Type.String({ maxLength: 64, description: 'chk_…' }) });

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const KycCheckListQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: `Page size, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
  },
  { additionalProperties: false },
);
export type KycCheckListQuery = Static<typeof KycCheckListQuery>;

export const KycCheckList = Type.Object({
  data: Type.Array(KycCheckResult, { description: 'Newest first' }),
  nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
});
export type KycCheckList = Static<typeof KycCheckList>;
