import type { Kysely, Migration } from 'kysely';

export function amlMigrations(): Record<string, Migration> {
  return {
    '010_aml_screenings': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('aml_screenings')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('lists_version', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('aml_screenings_account').on('aml_screenings').columns(['account_id', 'created_at']).execute();
      },
    },
    '011_aml_monitoring': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('aml_monitored_subjects')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('screening_id', 'text', (c) => c.notNull())
          .addColumn('query', 'text', (c) => c.notNull())
          .addColumn('matches', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('lists_version', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('aml_monitored_subjects_account').on('aml_monitored_subjects').columns(['account_id', 'created_at']).execute();
        await db.schema.createIndex('aml_monitored_subjects_active').on('aml_monitored_subjects').columns(['status', 'id']).execute();
        await db.schema
          .createTable('aml_monitoring_alerts')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('subject_id', 'text', (c) => c.notNull().references('aml_monitored_subjects.id'))
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('change', 'text', (c) => c.notNull())
          .addColumn('entity_id', 'text', (c) => c.notNull())
          .addColumn('detail', 'text', (c) => c.notNull())
          .addColumn('lists_version', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('aml_monitoring_alerts_subject').on('aml_monitoring_alerts').columns(['subject_id', 'created_at']).execute();
        await db.schema
          .createTable('aml_monitoring_runs')
          .addColumn('run_key', 'text', (c) => c.primaryKey())
          .addColumn('lists_version', 'text', (c) => c.notNull())
          .addColumn('previous_version', 'text')
          .addColumn('subjects', 'integer', (c) => c.notNull())
          .addColumn('alerts', 'integer', (c) => c.notNull())
          .addColumn('started_at', 'text', (c) => c.notNull())
          .addColumn('finished_at', 'text')
          .execute();
      },
    },
  };
}
