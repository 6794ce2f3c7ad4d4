import type { DomainModule } from '../core.ts';
import { userMigrations } from './migrations.ts';
import { type UsersService, createUsersService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    users: UsersService;
  }
}

/** The people of an account who use the dashboard, their sessions and the audit log of what they do. */
export const usersModule: DomainModule<UsersService> = {
  name: 'users',
  migrations: userMigrations,
  setup: async (platform) =>
    createUsersService({
      db: platform.storage.db,
      baseUrl: platform.config.baseUrl,
      redis: platform.redis && { client: platform.redis, prefix: platform.config.redisPrefix },
    }),
};
