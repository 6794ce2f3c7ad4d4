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
    monitor: Type.Optional(
      Type.Boolean({ description: 'Keep screening this name whenever the lists change; a new or changed match raises aml.monitoring.match' }),
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
    monitoringSubjectId: Type.Optional(Type.String({ description: 'mon_…: the monitored subject this screening enrolled (monitor: true)' })),
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

const MonitoredMatch = Type.Object({
  entityId: Type.String(),
  name: Type.String({ description: "The entity's primary listed name" }),
  list: Type.String(),
  score: Type.Number(),
});

export const MonitoredSubject = Type.Object({
  subjectId: Type.String({ description: 'mon_…' }),
  screeningId: Type.String({ description: 'The screening that enrolled it' }),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
  query: Type.Object({ name: Type.String() }, { additionalProperties: true }),
  status: Type.Union([Type.Literal('active'), Type.Literal('stopped')]),
  matches: Type.Array(MonitoredMatch, { description: 'What the name matches on the current lists' }),
  listsVersion: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const MonitoredSubjectDetail = Type.Object({
  ...MonitoredSubject.properties,
  alerts: Type.Array(
    Type.Object({
      alertId: Type.String({ description: 'alr_…' }),
      change: Type.Union([Type.Literal('new_match'), Type.Literal('changed_match'), Type.Literal('removed_match'), Type.Literal('cleared_match')]),
      match: MonitoredMatch,
      listsVersion: Type.String({ description: 'The list versions the change came with' }),
      createdAt: Type.String({ format: 'date-time' }),
    }),
    { description: "The subject's history, newest first" },
  ),
});

export const MonitoredSubjectList = Type.Object({ data: Type.Array(MonitoredSubject, { description: 'Newest first' }) });
export const SubjectParams = Type.Object({ subjectId: Type.String({ maxLength: 64, description: 'mon_…' }) });
export type SubjectParams = Static<typeof SubjectParams>;
export const SubjectListQuery = Type.Object(
  { limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'At most 100 (default 20)' })) },
  { additionalProperties: false },
);
export type SubjectListQuery = Static<typeof SubjectListQuery>;
