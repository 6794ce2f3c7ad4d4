import type { Kysely, Migration } from 'kysely';

export function workflowMigrations(): Record<string, Migration> {
  return {
    '070_workflows': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('workflow_definitions')
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('definition', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('workflow_definitions_pk', ['account_id', 'name', 'version'])
          .execute();
        await db.schema
          .createTable('workflow_runs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('key_environment', 'text', (c) => c.notNull())
          .addColumn('workflow', 'text', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('definition', 'text', (c) => c.notNull())
          .addColumn('input', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('decision', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('completed_at', 'text')
          .execute();
        await db.schema.createIndex('workflow_runs_account').on('workflow_runs').columns(['account_id', 'created_at']).execute();
        await db.schema
          .createTable('workflow_run_checks')
          .addColumn('check_id', 'text', (c) => c.primaryKey())
          .addColumn('run_id', 'text', (c) => c.notNull().references('workflow_runs.id'))
          .addColumn('step_id', 'text', (c) => c.notNull())
          .addColumn('account_id', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('workflow_run_checks_run').on('workflow_run_checks').column('run_id').execute();
      },
    },
    '071_workflow_runs_awaiting_review': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('workflow_runs').addColumn('awaiting_check', 'text').execute();
        await db.schema.createIndex('workflow_runs_awaiting').on('workflow_runs').columns(['awaiting_check']).execute();
      },
    },
  };
}
