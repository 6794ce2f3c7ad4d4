import type { DomainModule } from '../core.ts';
import { oauthMigrations } from './migrations.ts';
import { createOAuthRepository } from './repository.ts';
import { oauthRoutes } from './routes.ts';
import { type OAuthService, createOAuthService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    oauth: OAuthService;
  }
}

/** The token endpoint (every grant) and kyx as an OAuth 2.0 authorization server; consent lives in the dashboard. */
export const oauthModule: DomainModule<OAuthService> = {
  name: 'oauth',
  migrations: oauthMigrations,
  setup: async (platform) =>
    createOAuthService({
      repository: createOAuthRepository(platform.storage.db),
      keyring: platform.keyring,
      credentials: platform.credentials,
      issuer: platform.config.baseUrl,
    }),
  routes: oauthRoutes,
};
