// The one store of checks of every kind. A domain stores its check here (the row and its meter in one
// transaction); reports, bundles and lists find any check of a tenant here, by id or a page at a time.
import { type Kysely, type Transaction, sql } from 'kysely';
import { Counter, type Registry } from 'prom-client';
import type { Meters } from '../accounts/meters.ts';
import type { CheckKindDefinition, CheckReview, CheckTable, KeyEnvironment, RecordEnvironment, StoredCheck } from '../core.ts';
import { DomainError } from '../errors.ts';
import { derivedId, newId } from '../ids.ts';
import type { Dialect } from './database.ts';
import type { Database } from './schema.ts';
import type { EventLog } from '../events/log.ts';

/** The environment a check made with this key is stored under. */
export function checkEnvironment(keyEnvironment: KeyEnvironment): RecordEnvironment {
  return keyEnvironment === 'live' ? 'live' : 'sandbox';
}

export interface NewCheck {
  id: string;
  accountId: string;
  environment: RecordEnvironment;
  createdAt: string;
  /** What the `record` column holds (JSON). */
  record: unknown;
  /** The kind's own columns beyond the common ones (`status`, `lists_version`, …). */
  columns?: Record<string, string | number | null>;
  /** A live check is billed unless this is false (a KYA verification refused for want of a model is not). */
  billable?: boolean;
  /** When the meter counts it; createdAt by default. */
  billedAt?: Date;
}

export interface CheckFilter {
  /** The kind's own outcome word, as `summary().status` reports it. */
  status?: string;
  environment?: RecordEnvironment;
  /** Created at or after this instant (ISO 8601). */
  createdFrom?: string;
  /** Created before this instant (ISO 8601). */
  createdBefore?: string;
  /** Text the check's id or record contains (a reference, a name), in any letter case. */
  text?: string;
}

export interface CheckPage {
  data: StoredCheck[];
  nextCursor: string | null;
}

export interface CheckStore {
  readonly kinds: readonly CheckKindDefinition[];
  /** The kind of a check id, by its prefix; undefined for an id no registered kind issues. */
  kindOf(id: string): CheckKindDefinition | undefined;
  /** A new random id of the kind; with `seed`, the same id for the same seed (see derivedId). */
  newId(kind: string, seed?: string): string;
  /** Where the check's own report is served. */
  reportUrl(kind: string, id: string): string;
  /** Runs `work` in one transaction: a check and everything stored with it commit together. */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /**
   * Stores the check row, emits `check.completed` and, for a live billable check, counts its meter, all inside
   * `trx`.
   */
  insert(trx: Transaction<Database>, kind: string, check: NewCheck): Promise<void>;
  /**
   * A check belonging to `accountId`, or undefined (also for another tenant's id); with `kind`, only a check of
   * that kind.
   */
  find(accountId: string, id: string, kind?: string): Promise<StoredCheck | undefined>;
  /**
   * The tenant's checks of the given kinds (all by default), newest first, narrowed by `filter`. Throws
   * DomainError `invalid_input` for a cursor this store did not issue.
   */
  list(accountId: string, page: { kinds?: readonly string[]; limit: number; cursor?: string; filter?: CheckFilter }): Promise<CheckPage>;
  /** The tenant's checks whose outcome awaits a person's decision and that nobody decided yet, oldest first. */
  awaitingReview(accountId: string, page: { limit: number; cursor?: string }): Promise<CheckPage>;
  /**
   * Stores the one decision on a check inside `trx`; false when the check already has one (the first decision
   * stands). From then on the check's record carries it as `review`.
   */
  recordReview(trx: Transaction<Database>, check: StoredCheck, review: CheckReview): Promise<boolean>;
}

// Cursors are opaque to clients: the (created_at, id) of the last row of a page.
function encodeCursor(check: StoredCheck): string {
  return Buffer.from(JSON.stringify([check.createdAt, check.id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // reported below
  }
  throw DomainError.invalid([{ path: '/cursor', message: 'is not a cursor this API issued' }], 'querystring');
}

// Newest first, ties broken by id in byte order, the order the database is told to use as well: merged pages of
// several kinds then agree with each kind's cursor condition.
const newestFirst = (a: StoredCheck, b: StoredCheck) =>
  a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
const oldestFirst = (a: StoredCheck, b: StoredCheck) => newestFirst(b, a);

export function createCheckStore(options: {
  db: Kysely<Database>;
  dialect: Dialect;
  meters: Meters;
  events: EventLog;
  baseUrl: string;
  kinds: readonly CheckKindDefinition[];
  metrics: Registry;
}): CheckStore {
  const { db, meters, events, kinds } = options;
  // Counted when stored; a transaction rolled back after the insert is counted all the same (rare: a crash).
  const stored = new Counter({ name: 'kyx_checks_total', help: 'Checks stored by this instance, by kind and outcome', labelNames: ['kind', 'status', 'environment'], registers: [options.metrics] });
  // SQLite compares text byte by byte; Postgres by its collation unless told otherwise.
  const idInByteOrder = options.dialect === 'postgres' ? sql<string>`id collate "C"` : sql<string>`id`;
  const byKind = new Map(kinds.map((definition) => [definition.kind, definition]));
  const byPrefix = new Map(kinds.map((definition) => [definition.idPrefix, definition]));
  for (const [name, count] of [['kind', byKind.size], ['id prefix', byPrefix.size]] as const) {
    if (count !== kinds.length) throw new Error(`two check kinds share a ${name}`);
  }

  function definition(kind: string): CheckKindDefinition {
    const found = byKind.get(kind);
    if (!found) throw new Error(`no check kind "${kind}" is registered`);
    return found;
  }

  const publicRecordOf = (kind: CheckKindDefinition, stored: unknown) =>
    kind.publicRecord ? kind.publicRecord(stored) : (stored as Record<string, unknown>);

  function toStoredCheck(
    kind: CheckKindDefinition,
    row: { id: string; account_id: string; environment: RecordEnvironment; created_at: string; record: string; review: string | null },
  ): StoredCheck {
    const automated = publicRecordOf(kind, JSON.parse(row.record));
    // The automated outcome stays as it was stored; a person's decision is shown beside it.
    const record = row.review === null ? automated : { ...automated, review: JSON.parse(row.review) as CheckReview };
    return {
      id: row.id,
      kind: kind.kind,
      accountId: row.account_id,
      environment: row.environment,
      createdAt: row.created_at,
      record,
      summary: kind.summary(record),
    };
  }

  // Every check table shares these columns; Kysely cannot see that through a union of table names.
  const selectCheck = (table: CheckTable) =>
    db
      .selectFrom(table as 'kyb_checks')
      .select([
        'id',
        'account_id',
        'environment',
        'created_at',
        'record',
        sql<string | null>`(select review from check_reviews where check_reviews.check_id = ${sql.ref(`${table}.id`)})`.as('review'),
      ]);

  type CheckQuery = ReturnType<typeof selectCheck>;

  // One page merged from several kinds' tables: each table answers up to limit + 1 rows past the cursor in the
  // page's order, so the merge is exact and tells whether a next page exists.
  async function pageThrough(
    accountId: string,
    from: readonly CheckKindDefinition[],
    page: { limit: number; cursor?: string; order: 'newest' | 'oldest'; narrow?: (query: CheckQuery, kind: CheckKindDefinition) => CheckQuery },
  ): Promise<CheckPage> {
    const after = page.cursor === undefined ? null : decodeCursor(page.cursor);
    const newest = page.order === 'newest';
    const past = newest ? '<' : '>';
    const direction = newest ? 'desc' : 'asc';
    const pages = await Promise.all(
      from.map(async (kind) => {
        let query = selectCheck(kind.table).where('account_id', '=', accountId);
        if (page.narrow) query = page.narrow(query, kind);
        if (after) {
          query = query.where((eb) =>
            eb.or([eb('created_at', past, after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb(idInByteOrder, past, after.id)])]),
          );
        }
        const rows = await query.orderBy('created_at', direction).orderBy(idInByteOrder, direction).limit(page.limit + 1).execute();
        return rows.map((row) => toStoredCheck(kind, row));
      }),
    );
    const merged = pages.flat().sort(newest ? newestFirst : oldestFirst);
    const data = merged.slice(0, page.limit);
    const last = data.at(-1);
    return { data, nextCursor: merged.length > page.limit && last ? encodeCursor(last) : null };
  }

  return {
    kinds,
    kindOf: (id) => byPrefix.get(id.split('_')[0]),
    newId: (kind, seed) => (seed === undefined ? newId(definition(kind).idPrefix) : derivedId(definition(kind).idPrefix, seed)),
    reportUrl: (kind, id) => `${options.baseUrl}/reports/${definition(kind).report.code}/${id}.pdf`,
    transaction: (work) => db.transaction().execute(work),

    async insert(trx, kind, check) {
      const registered = definition(kind);
      const { table, meter } = registered;
      await trx
        .insertInto(table as 'kyb_checks')
        .values({
          ...check.columns,
          id: check.id,
          account_id: check.accountId,
          environment: check.environment,
          created_at: check.createdAt,
          record: JSON.stringify(check.record),
        } as never)
        .execute();
      if (check.environment === 'live' && check.billable !== false) {
        await meters.record(trx, check.accountId, meter, check.billedAt ?? new Date(check.createdAt));
      }
      const { status } = registered.summary(publicRecordOf(registered, check.record));
      stored.inc({ kind, status, environment: check.environment });
      await events.emit(trx, {
        accountId: check.accountId,
        environment: check.environment,
        type: 'check.completed',
        data: { checkId: check.id, kind, status, createdAt: check.createdAt },
      });
    },

    async find(accountId, id, wanted) {
      const kind = byPrefix.get(id.split('_')[0]);
      if (!kind || (wanted !== undefined && kind.kind !== wanted)) return undefined;
      const row = await selectCheck(kind.table).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && toStoredCheck(kind, row);
    },

    list(accountId, { kinds: wanted, limit, cursor, filter = {} }) {
      const like = filter.text === undefined ? undefined : `%${filter.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return pageThrough(accountId, (wanted ?? [...byKind.keys()]).map(definition), {
        limit,
        cursor,
        order: 'newest',
        narrow: (query, kind) => {
          let narrowed = query;
          if (filter.status !== undefined) narrowed = narrowed.where(kind.statusColumn as 'status', '=', filter.status as never);
          if (filter.environment !== undefined) narrowed = narrowed.where('environment', '=', filter.environment);
          if (filter.createdFrom !== undefined) narrowed = narrowed.where('created_at', '>=', filter.createdFrom);
          if (filter.createdBefore !== undefined) narrowed = narrowed.where('created_at', '<', filter.createdBefore);
          if (like !== undefined) {
            narrowed = narrowed.where(sql<boolean>`(lower(id) like ${like} escape '\\' or lower(record) like ${like} escape '\\')`);
          }
          return narrowed;
        },
      });
    },

    awaitingReview(accountId, { limit, cursor }) {
      const reviewed = kinds.filter((kind) => kind.review);
      return pageThrough(accountId, reviewed, {
        limit,
        cursor,
        order: 'oldest',
        narrow: (query, kind) =>
          query
            .where(kind.statusColumn as 'status', 'in', kind.review!.awaiting as never)
            .where(sql<boolean>`not exists (select 1 from check_reviews where check_reviews.check_id = ${sql.ref(`${kind.table}.id`)})`),
      });
    },

    async recordReview(trx, check, review) {
      const inserted = await trx
        .insertInto('check_reviews')
        .values({ check_id: check.id, account_id: check.accountId, decided_at: review.decidedAt, review: JSON.stringify(review) })
        .onConflict((conflict) => conflict.column('check_id').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}
