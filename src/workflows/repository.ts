import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { WorkflowDefinitionsTable, WorkflowRunChecksTable, WorkflowRunsTable } from './tables.ts';

export type DefinitionRow = Selectable<WorkflowDefinitionsTable>;
export type RunRow = Selectable<WorkflowRunsTable>;

export function createWorkflowRepository(db: Kysely<Database>) {
  return {
    async findDefinition(accountId: string, name: string, version?: number): Promise<DefinitionRow | undefined> {
      let query = db.selectFrom('workflow_definitions').selectAll().where('account_id', '=', accountId).where('name', '=', name);
      if (version !== undefined) query = query.where('version', '=', version);
      return query.orderBy('version', 'desc').limit(1).executeTakeFirst();
    },

    /** The latest version of each of the tenant's workflows. */
    async latestDefinitions(accountId: string): Promise<DefinitionRow[]> {
      const latest = db
        .selectFrom('workflow_definitions')
        .select(['name', (eb) => eb.fn.max('version').as('version')])
        .where('account_id', '=', accountId)
        .groupBy('name')
        .as('latest');
      return db
        .selectFrom('workflow_definitions as d')
        .innerJoin(latest, (join) => join.onRef('latest.name', '=', 'd.name').onRef('latest.version', '=', 'd.version'))
        .selectAll('d')
        .where('d.account_id', '=', accountId)
        .orderBy('d.name')
        .execute();
    },

    /**
     * Stores the next version of a workflow. Versions are never updated: the primary key refuses a second row for a
     * version, so two concurrent publishes cannot share one (the loser reads the new latest and takes the next).
     */
    async publish(accountId: string, name: string, definition: unknown, now: Date): Promise<DefinitionRow> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await db.transaction().execute(async (trx) => {
            const latest = await trx
              .selectFrom('workflow_definitions')
              .select((eb) => eb.fn.max('version').as('version'))
              .where('account_id', '=', accountId)
              .where('name', '=', name)
              .executeTakeFirst();
            const row: DefinitionRow = {
              account_id: accountId,
              name,
              version: Number(latest?.version ?? 0) + 1,
              definition: JSON.stringify(definition),
              created_at: now.toISOString(),
            };
            await trx.insertInto('workflow_definitions').values(row).execute();
            return row;
          });
        } catch (error) {
          if (attempt >= 5) throw error;
        }
      }
    },

    insertRun: (trx: Kysely<Database>, row: RunRow) => trx.insertInto('workflow_runs').values(row).execute(),

    loadRun: (runId: string) => db.selectFrom('workflow_runs').selectAll().where('id', '=', runId).executeTakeFirst(),

    findRun: (accountId: string, runId: string) =>
      db.selectFrom('workflow_runs').selectAll().where('id', '=', runId).where('account_id', '=', accountId).executeTakeFirst(),

    /** The tenant's runs, newest first; with `checkId`, only the run that created that check. */
    listRuns(accountId: string, options: { limit: number; checkId?: string }): Promise<RunRow[]> {
      let query = db.selectFrom('workflow_runs').selectAll('workflow_runs').where('workflow_runs.account_id', '=', accountId);
      if (options.checkId !== undefined) {
        query = query
          .innerJoin('workflow_run_checks', 'workflow_run_checks.run_id', 'workflow_runs.id')
          .where('workflow_run_checks.check_id', '=', options.checkId);
      }
      return query.orderBy('workflow_runs.created_at', 'desc').orderBy('workflow_runs.id', 'desc').limit(options.limit).execute();
    },

    /** Runs of the tenant waiting for the decision on this check. */
    awaitingDecision: (trx: Kysely<Database>, accountId: string, checkId: string) =>
      trx.selectFrom('workflow_runs').select('id').where('account_id', '=', accountId).where('awaiting_check', '=', checkId).execute(),

    updateRun: (trx: Kysely<Database>, runId: string, changes: Partial<Omit<RunRow, 'id'>>) =>
      trx.updateTable('workflow_runs').set(changes).where('id', '=', runId).execute(),

    async linkChecks(trx: Kysely<Database>, links: WorkflowRunChecksTable[]): Promise<void> {
      if (links.length > 0) await trx.insertInto('workflow_run_checks').values(links).execute();
    },
  };
}

export type WorkflowRepository = ReturnType<typeof createWorkflowRepository>;
