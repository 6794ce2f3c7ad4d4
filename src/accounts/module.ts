import type { DomainModule } from '../core.ts';
import { accountMigrations } from './migrations.ts';
import { accountRoutes } from './routes.ts';
import { type AccountsService, createAccountsService } from './service.ts';

declare module '../core.ts' {
  interface ModuleServices {
    accounts: AccountsService;
  }
}

export const accountsModule: DomainModule<AccountsService> = {
  name: 'accounts',
  migrations: accountMigrations,
  setup: async (platform) => createAccountsService(platform),
  routes: accountRoutes,
};
