import type { AccountTables } from '../accounts/tables.ts';

/**
 * The whole database as Kysely sees it: each domain declares its own tables next to its migrations
 * and the union is listed here.
 */
export interface Database extends AccountTables {}
