// Ongoing monitoring: a name screened with `monitor: true` is enrolled, and when a new set of list versions is
// swapped in, every enrolled name is screened again and compared with what it matched before, on the entries that
// were added, changed or removed only. A new or changed match is an alert (`aml.monitoring.match`); every change is
// kept in the subject's history. One instance re-screens per new set of versions (the first to record the run).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { EventLog } from '../events/log.ts';
import { newId } from '../ids.ts';
import type { Database } from '../storage/schema.ts';
import type { ListEntity } from './model.ts';
import { type ListsSnapshot, type ScreeningQuery, screen } from './screen.ts';
import type { AmlMonitoredSubjectsTable } from './tables.ts';

const PAGE = 1000;
/** A re-screen whose runner has not finished after this long is taken over. */
const RUN_LEASE_MS = 10 * 60_000;

export interface MonitoredMatch {
  entityId: string;
  name: string;
  list: string;
  score: number;
}

export interface ListChanges {
  /** Added or changed entries, by id. */
  changed: Set<string>;
  /** Entries no longer listed, by id. */
  removed: Set<string>;
}

const fingerprint = (entity: ListEntity) => createHash('sha1').update(JSON.stringify(entity)).digest('base64');

/** What the new set of lists added, changed or removed. */
export function listChanges(previous: readonly ListEntity[], next: readonly ListEntity[]): ListChanges {
  const before = new Map(previous.map((entity) => [entity.id, fingerprint(entity)]));
  const changed = new Set(next.filter((entity) => before.get(entity.id) !== fingerprint(entity)).map((entity) => entity.id));
  const nextIds = new Set(next.map((entity) => entity.id));
  const removed = new Set(previous.filter((entity) => !nextIds.has(entity.id)).map((entity) => entity.id));
  return { changed, removed };
}

/**
 * Without the previous lists (after a restart) every entry counts as changed, and a remembered match that is no
 * longer listed as removed: the name is compared with the whole of the new lists.
 */
function everythingChanged(nextIds: Set<string>, remembered: readonly MonitoredMatch[]): ListChanges {
  return { changed: nextIds, removed: new Set(remembered.map((match) => match.entityId).filter((id) => !nextIds.has(id))) };
}

export type SubjectChange = { change: 'new_match' | 'changed_match' | 'removed_match' | 'cleared_match'; match: MonitoredMatch };

/**
 * A subject's matches after the change, and what changed: a match on a changed entry is new or changed (when the
 * score moved), a remembered match on a removed entry is removed, on a changed entry that no longer matches cleared.
 */
export function rescreenSubject(
  snapshot: ListsSnapshot,
  changes: ListChanges,
  query: ScreeningQuery,
  remembered: readonly MonitoredMatch[],
): { matches: MonitoredMatch[]; changes: SubjectChange[] } {
  const now = screen(snapshot, query)
    .matches.filter((match) => changes.changed.has(match.entityId))
    .map((match): MonitoredMatch => ({ entityId: match.entityId, name: match.name, list: match.lists[0] ?? '', score: match.score }));
  const found: SubjectChange[] = [];
  const before = new Map(remembered.map((match) => [match.entityId, match]));
  for (const match of now) {
    const was = before.get(match.entityId);
    if (!was) found.push({ change: 'new_match', match });
    else if (was.score !== match.score) found.push({ change: 'changed_match', match });
  }
  const nowIds = new Set(now.map((match) => match.entityId));
  for (const was of remembered) {
    if (changes.removed.has(was.entityId)) found.push({ change: 'removed_match', match: was });
    else if (changes.changed.has(was.entityId) && !nowIds.has(was.entityId)) found.push({ change: 'cleared_match', match: was });
  }
  const kept = remembered.filter((match) => !changes.changed.has(match.entityId) && !changes.removed.has(match.entityId));
  return { matches: [...kept, ...now], changes: found };
}

export interface MonitoredSubject {
  subjectId: string;
  screeningId: string;
  environment: 'sandbox' | 'live';
  query: ScreeningQuery;
  status: 'active' | 'stopped';
  matches: MonitoredMatch[];
  listsVersion: string;
  createdAt: string;
  updatedAt: string;
}

export interface MonitoringAlert {
  alertId: string;
  change: SubjectChange['change'];
  match: MonitoredMatch;
  listsVersion: string;
  createdAt: string;
}

const toSubject = (row: AmlMonitoredSubjectsTable): MonitoredSubject => ({
  subjectId: row.id,
  screeningId: row.screening_id,
  environment: row.environment,
  query: JSON.parse(row.query) as ScreeningQuery,
  status: row.status,
  matches: JSON.parse(row.matches) as MonitoredMatch[],
  listsVersion: row.lists_version,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** What KYC and KYB call in a check's transaction with the names it screened; enrols them if the account says so. */
export type MonitorNames = (
  trx: Kysely<Database>,
  check: { accountId: string; environment: 'sandbox' | 'live'; checkId: string; now: Date },
  parties: Array<{ query: ScreeningQuery; matches: Array<{ entityId?: string; name?: string; lists?: string[]; score: number }> }>,
) => Promise<void>;

/** The account setting that enrols the names of its live KYC and KYB checks (kyx monitoring enable). */
export const monitoringSettingKey = (accountId: string) => `aml_monitoring:${accountId}`;

/** Turns enrolment of an account's live KYC and KYB names on or off. */
export async function setAccountMonitoring(db: Kysely<Database>, accountId: string, enabled: boolean): Promise<void> {
  const key = monitoringSettingKey(accountId);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('settings').where('key', '=', key).execute();
    if (enabled) await trx.insertInto('settings').values({ key, value: 'on' }).execute();
  });
}

export interface MonitoringStore {
  /**
   * Inside a live check's transaction: enrols the names it screened when its account enabled monitoring (the
   * screening id is then the check's id). Sandbox checks never enrol.
   */
  enrolIfEnabled(
    trx: Kysely<Database>,
    check: { accountId: string; environment: 'sandbox' | 'live'; checkId: string; listsVersion: string | undefined; now: Date },
    parties: Parameters<MonitorNames>[2],
  ): Promise<void>;
  list(accountId: string, limit: number): Promise<MonitoredSubject[]>;
  /** The subject with its history, newest first; undefined for another tenant's. */
  find(accountId: string, subjectId: string): Promise<(MonitoredSubject & { alerts: MonitoringAlert[] }) | undefined>;
  stop(accountId: string, subjectId: string): Promise<boolean>;
  enrol(trx: Kysely<Database>, subject: { id: string; accountId: string; environment: 'sandbox' | 'live'; screeningId: string; query: ScreeningQuery; matches: MonitoredMatch[]; listsVersion: string; now: Date }): Promise<string>;
  /**
   * Screens every active name not yet screened against `next`: against the entries changed since `previous`, or
   * without it (at start-up) against all of `next`; false when another instance is doing or did this version.
   */
  rescreenAll(previous: ListsSnapshot | null, next: ListsSnapshot): Promise<{ subjects: number; alerts: number } | false>;
}

export function createMonitoring(db: Kysely<Database>, events: EventLog): MonitoringStore {
  const subjectOf = (accountId: string, subjectId: string) =>
    db.selectFrom('aml_monitored_subjects').selectAll().where('id', '=', subjectId).where('account_id', '=', accountId).executeTakeFirst();
  /**
   * The one re-screen of a set of versions: the first instance to record it, or the next one after its runner went
   * quiet for RUN_LEASE_MS (it died; the names it finished are current and are not screened again).
   */
  async function claimRun(runKey: string, previous: ListsSnapshot | null, next: ListsSnapshot): Promise<boolean> {
    const now = new Date();
    const inserted = await db
      .insertInto('aml_monitoring_runs')
      .values({ run_key: runKey, lists_version: next.listsVersion, previous_version: previous?.listsVersion ?? null, subjects: 0, alerts: 0, started_at: now.toISOString(), finished_at: null })
      .onConflict((conflict) => conflict.column('run_key').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const taken = await db
      .updateTable('aml_monitoring_runs')
      .set({ started_at: now.toISOString() })
      .where('run_key', '=', runKey)
      .where('finished_at', 'is', null)
      .where('started_at', '<', new Date(now.getTime() - RUN_LEASE_MS).toISOString())
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  const store: MonitoringStore = {
    async enrolIfEnabled(trx, check, parties) {
      if (check.environment !== 'live' || parties.length === 0 || check.listsVersion === undefined) return;
      const setting = await trx.selectFrom('settings').select('value').where('key', '=', monitoringSettingKey(check.accountId)).executeTakeFirst();
      if (setting?.value !== 'on') return;
      for (const party of parties) {
        const matches = party.matches.map((match) => ({ entityId: match.entityId ?? '', name: match.name ?? '', list: match.lists?.[0] ?? '', score: match.score }));
        await store.enrol(trx, { id: newId('mon'), accountId: check.accountId, environment: check.environment, screeningId: check.checkId, query: party.query, matches, listsVersion: check.listsVersion, now: check.now });
      }
    },

    async list(accountId, limit) {
      const rows = await db.selectFrom('aml_monitored_subjects').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toSubject);
    },

    async find(accountId, subjectId) {
      const row = await subjectOf(accountId, subjectId);
      if (!row) return undefined;
      const alerts = await db.selectFrom('aml_monitoring_alerts').selectAll().where('subject_id', '=', subjectId).orderBy('created_at', 'desc').orderBy('id').execute();
      return {
        ...toSubject(row),
        alerts: alerts.map((alert) => ({ alertId: alert.id, change: alert.change, match: JSON.parse(alert.detail) as MonitoredMatch, listsVersion: alert.lists_version, createdAt: alert.created_at })),
      };
    },

    async stop(accountId, subjectId) {
      const result = await db
        .updateTable('aml_monitored_subjects')
        .set({ status: 'stopped', updated_at: new Date().toISOString() })
        .where('id', '=', subjectId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async enrol(trx, subject) {
      const { id } = subject;
      await trx
        .insertInto('aml_monitored_subjects')
        .values({
          id,
          account_id: subject.accountId,
          environment: subject.environment,
          screening_id: subject.screeningId,
          query: JSON.stringify(subject.query),
          matches: JSON.stringify(subject.matches),
          status: 'active',
          lists_version: subject.listsVersion,
          created_at: subject.now.toISOString(),
          updated_at: subject.now.toISOString(),
        })
        .execute();
      return id;
    },

    async rescreenAll(previous, next) {
      const runKey = `${previous?.listsVersion ?? 'start'}>${next.listsVersion}`;
      if (!(await claimRun(runKey, previous, next))) return false;
      const known = previous && listChanges(previous.index.entities, next.index.entities);
      const nextIds = known ? undefined : new Set(next.index.entities.map((entity) => entity.id));
      let subjects = 0;
      let alerts = 0;
      // Names not yet screened against these versions: all of them after an update, the rest after a crash, those
      // enrolled before an update that came while no instance ran.
      for (let after = ''; ; ) {
        const page: AmlMonitoredSubjectsTable[] = await db
          .selectFrom('aml_monitored_subjects')
          .selectAll()
          .where('status', '=', 'active')
          .where('lists_version', '!=', next.listsVersion)
          .where('id', '>', after)
          .orderBy('id')
          .limit(PAGE)
          .execute();
        if (page.length === 0) break;
        after = page.at(-1)!.id;
        subjects += page.length;
        const now = new Date();
        const results = page.map((row) => {
          const remembered = JSON.parse(row.matches) as MonitoredMatch[];
          return { row, ...rescreenSubject(next, known ?? everythingChanged(nextIds!, remembered), JSON.parse(row.query) as ScreeningQuery, remembered) };
        });
        await db.transaction().execute(async (trx) => {
          for (const { row, matches, changes: found } of results.filter((result) => result.changes.length > 0)) {
            await trx.updateTable('aml_monitored_subjects').set({ matches: JSON.stringify(matches), updated_at: now.toISOString() }).where('id', '=', row.id).execute();
            await trx
              .insertInto('aml_monitoring_alerts')
              .values(found.map(({ change, match }) => ({ id: newId('alr'), subject_id: row.id, account_id: row.account_id, change, entity_id: match.entityId, detail: JSON.stringify(match), lists_version: next.listsVersion, created_at: now.toISOString() })))
              .execute();
            alerts += found.length;
            if (found.some(({ change }) => change === 'new_match' || change === 'changed_match')) {
              await events.emit(
                trx,
                {
                  accountId: row.account_id,
                  environment: row.environment,
                  type: 'aml.monitoring.match',
                  data: { subjectId: row.id, screeningId: row.screening_id, listsVersion: next.listsVersion, previousListsVersion: row.lists_version, changes: found },
                },
                now,
              );
            }
          }
          await trx.updateTable('aml_monitored_subjects').set({ lists_version: next.listsVersion }).where('id', 'in', page.map((row) => row.id)).execute();
        });
      }
      await db.updateTable('aml_monitoring_runs').set({ subjects, alerts, finished_at: new Date().toISOString() }).where('run_key', '=', runKey).execute();
      return { subjects, alerts };
    },
  };
  return store;
}
