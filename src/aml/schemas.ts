import { Type, type Static } from 'typebox';
import { Review } from '../reviews/schemas.ts';
import { BATCH_MAX, IDENTIFIER_MAX_LENGTH, IDENTIFIERS_MAX, NAME_MAX_LENGTH } from './validate.ts';
import { DEFAULT_THRESHOLD } from './screen.ts';

const Identifier = Type.Object(
  { type: Type.Optional(Type.String({ maxLength: 32 })), value: Type.String({ maxLength: IDENTIFIER_MAX_LENGTH }) },
  { additionalProperties: false },
);

// Structure only; the rules a name must follow (letters, no control characters, length after NFKC) are checked
// by validateScreeningQuery, which names the field in every error.
export const ScreeningQueryBody = Type.Object(
  {
    name: Type.Optional(Type.String({
      description: `The person's or organisation's name (2 to ${NAME_MAX_LENGTH} characters, any script). Required unless name parts are given; when both are, name is screened`,
    })),
    firstName: Type.Optional(Type.String({ description: "A person's given name(s), instead of name" })),
    middleName: Type.Optional(Type.String({ description: "A person's middle name(s), instead of name" })),
    lastName: Type.Optional(Type.String({ description: "A person's family name(s), instead of name" })),
    fatherName: Type.Optional(Type.String({ description: "A person's patronymic or father's name, instead of name" })),
    type: Type.Optional(Type.Union([Type.Literal('person'), Type.Literal('organization')])),
    dateOfBirth: Type.Optional(Type.String({ description: 'YYYY, YYYY-MM or YYYY-MM-DD; a listed date that differs lowers a score' })),
    country: Type.Optional(Type.String({ description: 'ISO 3166-1 alpha-2 code or English country name' })),
    threshold: Type.Optional(Type.Number({ minimum: 0.5, maximum: 1, description: `Score from which a listed entity is reported (default ${DEFAULT_THRESHOLD})` })),
    identifiers: Type.Optional(
      Type.Array(Identifier, { maxItems: IDENTIFIERS_MAX, description: 'Passport, national id or registration numbers: an equal listed identifier is decisive' }),
    ),
  },
  { additionalProperties: false },
);
export type ScreeningQueryBody = Static<typeof ScreeningQueryBody>;

export const ScreeningBatchBody = Type.Object(
  { queries: Type.Array(ScreeningQueryBody, { minItems: 1, maxItems: BATCH_MAX }) },
  { additionalProperties: false },
);
export type ScreeningBatchBody = Static<typeof ScreeningBatchBody>;

const ListVersion = Type.Object({
  name: Type.String(),
  versionDate: Type.Union([Type.String(), Type.Null()]),
  sha256: Type.String(),
  entityCount: Type.Integer(),
});

const Match = Type.Object({
  entityId: Type.String(),
  name: Type.String({ description: "The entity's primary listed name" }),
  matchedName: Type.String({ description: 'The listed name (primary or alias) the query matched' }),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  lists: Type.Array(Type.String()),
  programs: Type.Array(Type.String()),
  type: Type.Union([Type.Literal('person'), Type.Literal('organization'), Type.Literal('vessel'), Type.Literal('aircraft')]),
  birthDates: Type.Array(Type.String()),
  nationalities: Type.Array(Type.String()),
  countries: Type.Array(Type.String()),
  features: Type.Object({
    nameScore: Type.Number(),
    matchedNameKind: Type.Union([Type.Literal('primary'), Type.Literal('alias'), Type.Literal('weak_alias'), Type.Literal('former')]),
    tokens: Type.Array(Type.Object({ query: Type.String(), matched: Type.String(), similarity: Type.Number() })),
    unmatchedQueryTokens: Type.Array(Type.String()),
    unmatchedListedTokens: Type.Array(Type.String()),
    adjustments: Type.Array(Type.Object({ feature: Type.String(), outcome: Type.String(), effect: Type.Number() })),
  }),
  reasons: Type.Array(Type.String(), { description: 'One line per piece of evidence' }),
});

export const ScreeningRecord = Type.Object(
  {
    review: Type.Optional(Review),
    screeningId: Type.String({ pattern: '^aml_' }),
    status: Type.Union([Type.Literal('clear'), Type.Literal('potential_match')]),
    matches: Type.Array(Match),
    listsVersion: Type.String({ description: 'Identifies the set of list versions screened against' }),
    lists: Type.Array(ListVersion),
    threshold: Type.Number(),
    engine: Type.String(),
    query: Type.Object({
      name: Type.String(),
      type: Type.Optional(Type.String()),
      dateOfBirth: Type.Optional(Type.String()),
      country: Type.Optional(Type.String()),
      threshold: Type.Optional(Type.Number()),
      identifiers: Type.Optional(Type.Array(Identifier)),
    }),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
    screenedAt: Type.String({ format: 'date-time' }),
    reportUrl: Type.String(),
  },
  { description: 'A stored screening' },
);

export const ScreeningBatchResponse = Type.Object({ results: Type.Array(ScreeningRecord, { description: 'One stored screening per query, in order' }) });

export const ScreeningParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type ScreeningParams = Static<typeof ScreeningParams>;

export const ListsResponse = Type.Object({
  listsVersion: Type.Union([Type.String(), Type.Null()], { description: 'The set of list versions screenings use now; null while none is loaded' }),
  lists: Type.Array(
    Type.Object({
      name: Type.String(),
      source: Type.String({ description: '`local` (KYX_LISTS_DIR or an imported list) or the publisher URL(s)' }),
      format: Type.Union([Type.String(), Type.Null()]),
      versionDate: Type.Union([Type.String(), Type.Null()]),
      entityCount: Type.Integer(),
      sha256: Type.Union([Type.String(), Type.Null()]),
      loadedAt: Type.Union([Type.String(), Type.Null()]),
      lastCheckedAt: Type.Union([Type.String(), Type.Null()]),
      lastError: Type.Union([Type.String(), Type.Null()], { description: 'Why the latest read of this list failed; its last good version keeps serving' }),
    }),
  ),
});
