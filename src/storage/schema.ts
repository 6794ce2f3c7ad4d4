import type { AccountTables } from '../accounts/tables.ts';

/**
 * The whole database as Kysely sees it. Each domain declares its tables next to its migrations and adds them
 * here by declaration merging (`declare module '../storage/schema.ts' { interface Database extends MyTables {} }`).
 */
export interface Database extends AccountTables {}
