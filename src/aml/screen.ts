// Screening a name against the loaded lists: name hits from the index, then qualifiers (date of birth,
// country, type) that raise or lower a score, and identifiers as decisive evidence. Pure functions over a
// snapshot of the lists, so the HTTP layer and KYC/KYB call the same code.

import { DomainError } from '../errors.ts';
import { countryCode } from './parsers/countries.ts';
import { entitiesWithIdentifier, proposedEntities, searchNames, type NameHit, type ScreeningIndex, type TokenPairing } from './matching.ts';
import type { EntityType, ListEntity, NameKind } from './model.ts';
import { splitVesselNumbers } from './normalize.ts';

/**
 * Default decision threshold, chosen on the dev split of `npm run eval:aml` (scripts/eval-aml.ts; 0.80 let
 * 0.53 % of unlisted names through, 0.85 lost 44 % of missing-middle-name positives). A listed name reordered,
 * with one typo or without a middle name typically scores 0.85–1; a different person sharing one name part
 * scores ≤ 0.8 (one-part matches are damped to 0.8 of their coverage).
 */
export const DEFAULT_THRESHOLD = 0.82;
export const ENGINE = 'kyx-aml/1';

const DOB_EXACT = 0.05;
const DOB_PARTIAL = 0.02;
const DOB_MISMATCH = -0.15;
const COUNTRY_MATCH = 0.03;
const COUNTRY_MISMATCH = -0.05;
const TYPE_MISMATCH = -0.15;
/** The most the qualifiers can add: names are searched down to threshold minus this. */
const MAX_BONUS = DOB_EXACT + COUNTRY_MATCH;

export interface ScreeningQuery {
  name: string;
  type?: 'person' | 'organization';
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` */
  dateOfBirth?: string;
  /** ISO 3166-1 alpha-2 or an English country name */
  country?: string;
  /** 0.5–1, default DEFAULT_THRESHOLD */
  threshold?: number;
  /** Passport, national id, registration, IMO… numbers: an equal listed identifier is decisive. */
  identifiers?: Array<{ type?: string; value: string }>;
  /** Most matches returned, default 20. */
  limit?: number;
}

export interface Adjustment {
  feature: 'date_of_birth' | 'country' | 'type' | 'identifier';
  outcome: string;
  effect: number;
}

export interface MatchFeatures {
  /** Score of the name alone, before qualifiers. */
  nameScore: number;
  matchedNameKind: NameKind;
  tokens: TokenPairing[];
  unmatchedQueryTokens: string[];
  unmatchedListedTokens: string[];
  adjustments: Adjustment[];
}

export interface ScreeningMatch {
  entityId: string;
  /** The entity's primary listed name */
  name: string;
  /** The listed name (primary or alias) that matched the query */
  matchedName: string;
  score: number;
  lists: string[];
  programs: string[];
  type: EntityType;
  birthDates: string[];
  nationalities: string[];
  countries: string[];
  features: MatchFeatures;
  /** Human-readable explanation, one line per piece of evidence. */
  reasons: string[];
}

export interface ListVersion {
  name: string;
  /** ISO 8601 date of this version (publisher's date, else the source's modification time) */
  versionDate: string | null;
  sha256: string;
  entityCount: number;
}

export interface ScreeningResult {
  status: 'clear' | 'potential_match';
  matches: ScreeningMatch[];
  listsVersion: string;
  lists: ListVersion[];
  threshold: number;
  engine: string;
}

/** What screening reads: one consistent set of lists and their index, swapped as a whole on refresh. */
export interface ListsSnapshot {
  index: ScreeningIndex;
  lists: ListVersion[];
  listsVersion: string;
}

export interface SnapshotProvider {
  snapshot(): ListsSnapshot | null;
}

/** Thrown when no list is loaded: screening must fail closed. */
export class ListsUnavailableError extends DomainError {
  constructor() {
    super('lists_unavailable', 'No sanctions list is loaded: names cannot be screened');
    this.name = 'ListsUnavailableError';
  }
}

function yearsOf(date: string): [number, number] {
  const range = /^(\d{4})\/(\d{4})$/.exec(date);
  if (range) return [Number(range[1]), Number(range[2])];
  const year = Number(date.slice(0, 4));
  return [year, year];
}

/** Compares a query date of birth with an entity's listed dates (ISO prefixes or year ranges). */
export function compareBirthDates(query: string, listed: string[]): Adjustment | undefined {
  if (listed.length === 0) return undefined;
  let best: Adjustment | undefined;
  const queryYear = Number(query.slice(0, 4));
  for (const date of listed) {
    let adjustment: Adjustment;
    const [from, to] = yearsOf(date);
    if (date.includes('/')) {
      adjustment = queryYear >= from && queryYear <= to
        ? { feature: 'date_of_birth', outcome: 'within_listed_range', effect: DOB_PARTIAL }
        : { feature: 'date_of_birth', outcome: 'mismatch', effect: Math.abs(queryYear - (queryYear < from ? from : to)) <= 1 ? 0 : DOB_MISMATCH };
    } else {
      const precision = Math.min(query.length, date.length);
      if (query.slice(0, precision) === date.slice(0, precision)) {
        adjustment = query.length === 10 && date.length === 10
          ? { feature: 'date_of_birth', outcome: 'exact', effect: DOB_EXACT }
          : { feature: 'date_of_birth', outcome: 'partial', effect: DOB_PARTIAL };
      } else if (Math.abs(queryYear - from) <= 1) {
        adjustment = { feature: 'date_of_birth', outcome: 'close', effect: 0 };
      } else {
        adjustment = { feature: 'date_of_birth', outcome: 'mismatch', effect: DOB_MISMATCH };
      }
    }
    if (!best || adjustment.effect > best.effect) best = adjustment;
  }
  return best;
}

function compareCountry(query: string, entity: ListEntity): Adjustment | undefined {
  const code = countryCode(query);
  if (!code) return undefined;
  const listed = new Set([...entity.nationalities, ...entity.countries].filter((c) => /^[A-Z]{2}$/.test(c)));
  for (const identifier of entity.identifiers) if (identifier.country) listed.add(identifier.country);
  if (listed.size === 0) return undefined;
  return listed.has(code)
    ? { feature: 'country', outcome: 'match', effect: COUNTRY_MATCH }
    : { feature: 'country', outcome: 'mismatch', effect: COUNTRY_MISMATCH };
}

function compareType(query: 'person' | 'organization', entity: ListEntity): Adjustment | undefined {
  const isPerson = entity.type === 'person';
  if ((query === 'person') === isPerson) return undefined;
  return { feature: 'type', outcome: `query_${query}_listed_${entity.type}`, effect: TYPE_MISMATCH };
}

function round(score: number): number {
  return Math.round(Math.max(0, Math.min(1, score)) * 1000) / 1000;
}

function describe(features: MatchFeatures, matchedName: string): string[] {
  const reasons: string[] = [];
  const kind = features.matchedNameKind === 'primary' ? 'listed name' : features.matchedNameKind.replace('_', ' ');
  if (features.tokens.length) {
    const exact = features.tokens.every((t) => t.similarity === 1) && features.unmatchedQueryTokens.length === 0 && features.unmatchedListedTokens.length === 0;
    reasons.push(exact
      ? `name equals ${kind} "${matchedName}"`
      : `name resembles ${kind} "${matchedName}" (${features.nameScore.toFixed(3)}): ${features.tokens.map((t) => t.query === t.matched ? t.query : `${t.query}≈${t.matched} ${t.similarity}`).join(', ')}`);
    if (features.unmatchedListedTokens.length) reasons.push(`listed name parts not in the query: ${features.unmatchedListedTokens.join(' ')}`);
    if (features.unmatchedQueryTokens.length) reasons.push(`query name parts not in the listed name: ${features.unmatchedQueryTokens.join(' ')}`);
  }
  for (const a of features.adjustments) {
    const sign = a.effect > 0 ? '+' : '';
    reasons.push(`${a.feature.replace(/_/g, ' ')} ${a.outcome.replace(/_/g, ' ')}${a.effect ? ` (${sign}${a.effect})` : ''}`);
  }
  return reasons;
}

function toMatch(index: ScreeningIndex, entityIndex: number, hit: NameHit | undefined, query: ScreeningQuery, identifier: string | undefined): ScreeningMatch {
  const entity = index.entities[entityIndex];
  const adjustments: Adjustment[] = [];
  if (query.dateOfBirth && entity.type === 'person') {
    const dob = compareBirthDates(query.dateOfBirth, entity.birthDates);
    if (dob) adjustments.push(dob);
  }
  if (query.country) {
    const country = compareCountry(query.country, entity);
    if (country) adjustments.push(country);
  }
  if (query.type) {
    const type = compareType(query.type, entity);
    if (type) adjustments.push(type);
  }
  const nameScore = hit ? hit.score : 0;
  let score = nameScore + adjustments.reduce((sum, a) => sum + a.effect, 0);
  if (identifier !== undefined) {
    adjustments.push({ feature: 'identifier', outcome: 'equal', effect: round(1 - score) });
    score = 1;
  }
  const matchedName = hit ? entity.names[hit.nameSlot].full : entity.names[0].full;
  const features: MatchFeatures = {
    nameScore: round(nameScore),
    matchedNameKind: hit ? hit.kind : entity.names[0].kind,
    tokens: hit?.pairings ?? [],
    unmatchedQueryTokens: hit?.unmatchedQuery ?? [],
    unmatchedListedTokens: hit?.unmatchedListed ?? [],
    adjustments,
  };
  const reasons = describe(features, matchedName);
  if (identifier !== undefined) reasons.push(`identifier ${identifier} is listed for this entity`);
  return {
    entityId: entity.id,
    name: entity.names[0].full,
    matchedName,
    score: round(score),
    lists: [entity.list],
    programs: entity.programs,
    type: entity.type,
    birthDates: entity.birthDates,
    nationalities: entity.nationalities,
    countries: entity.countries,
    features,
    reasons,
  };
}

function currentSnapshot(source: SnapshotProvider | ListsSnapshot | null): ListsSnapshot {
  const snapshot = source && 'index' in source ? source : source?.snapshot() ?? null;
  if (!snapshot || snapshot.index.entities.length === 0) throw new ListsUnavailableError();
  return snapshot;
}

/**
 * Screens one name. Throws ListsUnavailableError when nothing is loaded: an unscreened name never passes.
 * The query is assumed valid (see validateScreeningQuery).
 */
export function screen(source: SnapshotProvider | ListsSnapshot | null, query: ScreeningQuery): ScreeningResult {
  const snapshot = currentSnapshot(source);
  const { index } = snapshot;
  const threshold = query.threshold ?? DEFAULT_THRESHOLD;
  const limit = query.limit ?? 20;
  const { name, numbers } = splitVesselNumbers(query.name);
  const hits = searchNames(index, name, threshold - MAX_BONUS);
  const byIdentifier = entitiesWithIdentifier(index, [...(query.identifiers ?? []).map((i) => i.value), ...numbers]);
  const matches: ScreeningMatch[] = [];
  const seen = new Set<number>();
  for (const hit of hits) {
    seen.add(hit.entityIndex);
    matches.push(toMatch(index, hit.entityIndex, hit, query, byIdentifier.get(hit.entityIndex)));
  }
  for (const [entityIndex, value] of byIdentifier) {
    if (!seen.has(entityIndex)) matches.push(toMatch(index, entityIndex, undefined, query, value));
  }
  const reported = matches
    .filter((m) => m.score >= threshold)
    .sort((a, b) => b.score - a.score || a.entityId.localeCompare(b.entityId))
    .slice(0, limit);
  return {
    status: reported.length ? 'potential_match' : 'clear',
    matches: reported,
    listsVersion: snapshot.listsVersion,
    lists: snapshot.lists,
    threshold,
    engine: ENGINE,
  };
}

/**
 * Ids of the entities the index proposes for a query's name before scoring (see proposedEntities), searched as
 * screen searches it: a listed entity missing here cannot be found by any score. For measuring (npm run eval:aml).
 */
export function proposedEntityIds(snapshot: ListsSnapshot, query: ScreeningQuery): Set<string> {
  const threshold = query.threshold ?? DEFAULT_THRESHOLD;
  const { index } = snapshot;
  const proposed = proposedEntities(index, splitVesselNumbers(query.name).name, threshold - MAX_BONUS);
  return new Set([...proposed].map((entityIndex) => index.entities[entityIndex].id));
}

export interface PartyToScreen {
  /** A person's full name, or firstName + lastName */
  name?: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  dateOfBirth?: string;
  country?: string;
  identifiers?: Array<{ type?: string; value: string }>;
}

/** For KYC: screens a person in-process. Throws ListsUnavailableError when nothing is loaded. */
export function screenPerson(source: SnapshotProvider | ListsSnapshot | null, person: PartyToScreen): ScreeningResult {
  const name = person.name ?? [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ');
  return screen(source, { name, type: 'person', dateOfBirth: person.dateOfBirth, country: person.country, identifiers: person.identifiers });
}

/** For KYB: screens a company (registration number and country help) in-process. */
export function screenCompany(
  source: SnapshotProvider | ListsSnapshot | null,
  company: { name: string; country?: string; registrationNumber?: string; identifiers?: Array<{ type?: string; value: string }> },
): ScreeningResult {
  const identifiers = [...(company.identifiers ?? [])];
  if (company.registrationNumber) identifiers.push({ type: 'registration', value: company.registrationNumber });
  return screen(source, { name: company.name, type: 'organization', country: company.country, identifiers });
}

/** Listed names the warm-up screens: enough calls for V8 to optimise the matching code. */
const WARM_UP_NAMES = 64;

/**
 * Screens names of the snapshot's own entities (as listed, with a letter dropped, with qualifiers and
 * identifiers, and a Cyrillic and an Arabic name), so the first real screening after a load does not pay for what
 * is built on first use: V8's compilation of the matching code, the scratch space sized to the index and the
 * transliteration tables. The registry calls it before it serves a new snapshot.
 */
export function warmUp(snapshot: ListsSnapshot): void {
  const { entities } = snapshot.index;
  const step = Math.max(1, Math.floor(entities.length / WARM_UP_NAMES));
  for (let i = 0; i < entities.length; i += step) {
    const entity = entities[i];
    const name = entity.names[0].full;
    screen(snapshot, { name });
    screen(snapshot, {
      name: name.slice(0, name.length >> 1) + name.slice((name.length >> 1) + 1),
      type: entity.type === 'person' ? 'person' : 'organization',
      dateOfBirth: /^\d{4}/.exec(entity.birthDates[0] ?? '')?.[0],
      country: entity.countries[0],
      identifiers: entity.identifiers.slice(0, 1),
    });
  }
  for (const name of ['Иван Сергеевич Петров', 'عبد الرحمن ياسين']) screen(snapshot, { name });
}
