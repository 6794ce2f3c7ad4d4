import type { DomainModule } from '../core.ts';
import { accountMigrations } from './migrations.ts';
import { accountRoutes } from './routes.ts';

export const accountsModule: DomainModule = {
  name: 'accounts',
  migrations: accountMigrations,
  routes: accountRoutes,
};
