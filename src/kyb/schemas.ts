// Request and response schemas of POST /api/v1/kyb/verify, GET /api/v1/kyb/checks/{kybId} and the KYB part of the
// sandbox scenario catalogue. Identifier formats (country, LEI, VAT, company number) are checked by
// validateKybRequest, which gives the reason; the schema only fixes the shape.
import { Type, type Static } from 'typebox';
import { Review } from '../reviews/schemas.ts';

const DateOfBirth = Type.String({ description: 'YYYY-MM-DD', examples: ['1980-04-17'] });

export const KybVerifyRequest = Type.Object(
  {
    companyName: Type.String({ minLength: 1, maxLength: 300 }),
    country: Type.String({ description: 'ISO 3166-1 alpha-2 country of registration', examples: ['GB'] }),
    registrationNumber: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Company number at the national registry; UK numbers are zero-padded to 8 characters (SC001234)',
    }),
    vatNumber: Type.Optional(Type.String({ maxLength: 20, description: 'With or without its EU prefix (DE…, EL…, XI…)' })),
    lei: Type.Optional(Type.String({ maxLength: 20, description: 'ISO 17442 Legal Entity Identifier' })),
    regulatorId: Type.Optional(Type.String({ maxLength: 64, description: 'UK: FCA Firm Reference Number (FRN)' })),
    officers: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 300 }), dateOfBirth: Type.Optional(DateOfBirth), role: Type.String({ minLength: 1, maxLength: 100 }) },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
    owners: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 300 }),
            dateOfBirth: Type.Optional(DateOfBirth),
            ownershipPercent: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type KybVerifyRequest = Static<typeof KybVerifyRequest>;

const Reason = Type.Object({ code: Type.String(), message: Type.String() });

const CheckName = Type.Union([
  Type.Literal('registry'),
  Type.Literal('tax'),
  Type.Literal('regulator'),
  Type.Literal('lei'),
  Type.Literal('aml'),
]);
const CheckResult = Type.Union([
  Type.Literal('passed'),
  Type.Literal('review'),
  Type.Literal('failed'),
  Type.Literal('skipped'),
]);
const SourceName = Type.Union([
  Type.Literal('companies_house'),
  Type.Literal('gleif'),
  Type.Literal('vies'),
  Type.Literal('fca'),
]);
const Status = Type.Union([Type.Literal('passed'), Type.Literal('review'), Type.Literal('failed')]);

export const KybCheck = Type.Object({
  name: CheckName,
  result: CheckResult,
  reasons: Type.Array(Reason),
  source: Type.Optional(SourceName),
  retrievedAt: Type.Optional(Type.String({ format: 'date-time' })),
});

const Address = Type.Object({
  lines: Type.Array(Type.String()),
  locality: Type.Optional(Type.String()),
  region: Type.Optional(Type.String()),
  postalCode: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
});

const RegistryOfficer = Type.Object({
  name: Type.String(),
  role: Type.String(),
  appointedOn: Type.Optional(Type.String()),
  birthYearMonth: Type.Optional(Type.String({ description: 'YYYY-MM, as Companies House publishes it' })),
  nationality: Type.Optional(Type.String()),
});

const RegistryOwner = Type.Object({
  name: Type.String(),
  kind: Type.Union([Type.Literal('person'), Type.Literal('organization')]),
  naturesOfControl: Type.Array(Type.String()),
  ownershipPercentAtLeast: Type.Optional(Type.Number()),
  birthYearMonth: Type.Optional(Type.String()),
});

export const KybCompany = Type.Object(
  {
    name: Type.String(),
    country: Type.String(),
    registrationNumber: Type.String(),
    status: Type.Optional(Type.String({ description: 'Registry status: active, dissolved, liquidation …' })),
    type: Type.Optional(Type.String()),
    incorporatedOn: Type.Optional(Type.String()),
    jurisdiction: Type.Optional(Type.String()),
    registeredAddress: Type.Optional(Address),
    sicCodes: Type.Optional(Type.Array(Type.String())),
    vat: Type.Optional(
      Type.Object({
        number: Type.String(),
        valid: Type.Boolean(),
        name: Type.Optional(Type.String()),
        address: Type.Optional(Type.String()),
      }),
    ),
    lei: Type.Optional(
      Type.Object({
        code: Type.String(),
        legalName: Type.String(),
        registrationStatus: Type.String({ description: 'ISSUED, LAPSED, RETIRED …' }),
        entityStatus: Type.String(),
        nextRenewalDate: Type.Optional(Type.String()),
      }),
    ),
    regulator: Type.Optional(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        status: Type.String({ description: 'Authorised, No longer authorised …' }),
        statusEffectiveDate: Type.Optional(Type.String()),
      }),
    ),
    officers: Type.Array(RegistryOfficer),
    owners: Type.Array(RegistryOwner),
  },
  { description: 'The best record assembled from the sources (registry first, then GLEIF, the regulator, VIES)' },
);

const ScreeningMatch = Type.Object(
  { score: Type.Number(), entityId: Type.Optional(Type.String()), name: Type.Optional(Type.String()), matchedName: Type.Optional(Type.String()), lists: Type.Optional(Type.Array(Type.String())) },
  { additionalProperties: true },
);

export const KybParty = Type.Object({
  name: Type.String(),
  type: Type.Union([Type.Literal('person'), Type.Literal('organization')]),
  role: Type.Union([Type.Literal('company'), Type.Literal('officer'), Type.Literal('owner')]),
  position: Type.Optional(Type.String()),
  ownershipPercent: Type.Optional(Type.Number()),
  from: Type.Array(Type.Union([Type.Literal('request'), Type.Literal('registry')])),
  screening: Type.Object({
    status: Type.Union([Type.Literal('clear'), Type.Literal('potential_match'), Type.Literal('unavailable')]),
    matches: Type.Array(ScreeningMatch),
  }),
});

export const KybSourceReport = Type.Object({
  name: SourceName,
  retrievedAt: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Literal('found'), Type.Literal('not_found'), Type.Literal('unavailable')]),
  reason: Type.Optional(Type.String()),
  summary: Type.Record(Type.String(), Type.Unknown()),
});

export const KybVerifyResponse = Type.Object({
  review: Type.Optional(Review),
  kybId: Type.String({ description: 'kyb_…' }),
  status: Status,
  riskLevel: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  checks: Type.Array(KybCheck),
  company: KybCompany,
  parties: Type.Array(KybParty, { description: 'The company, its officers and owners, each with its screening result' }),
  sources: Type.Array(KybSourceReport),
  /** The request as received, kept for the audit trail and RPT-002. */
  request: Type.Optional(KybVerifyRequest),
  reportUrl: Type.String({ description: 'RPT-002 PDF' }),
  completedAt: Type.String({ format: 'date-time' }),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
});
export type KybVerifyResponse = Static<typeof KybVerifyResponse>;

export const KybSandboxScenario = Type.Object({
  id: Type.String(),
  description: Type.String(),
  request: Type.Optional(KybVerifyRequest),
  expected: Type.Object({ status: Status, checks: Type.Record(Type.String(), CheckResult) }),
});
