import type { DomainModule } from '../modules.ts';
import { kyaThresholdsFromEnv } from './config.ts';
import { kyaMigrations } from './migrations.ts';
import { loadEmbeddedModel } from './model.ts';
import { kyaRoutes } from './routes.ts';
import { type KyaService, createKyaService } from './service.ts';
import './tables.ts';

declare module '../context.ts' {
  interface DomainServices {
    kya: KyaService;
  }
}

export const kyaModule: DomainModule = {
  name: 'kya',
  migrations: kyaMigrations,
  async setup(context) {
    const kya = createKyaService({
      db: context.storage.db,
      keyring: context.keyring,
      meters: context.meters,
      issuer: context.config.baseUrl,
      // The keyring keeps a retired key in the JWKS for tokenTtlSeconds: a certificate living longer could
      // outlive the key that verifies it after a rotation.
      certificateLifetimeSeconds: context.config.tokenTtlSeconds,
      keepPrompts: context.config.keepPrompts,
      thresholds: kyaThresholdsFromEnv(),
      loadModel: loadEmbeddedModel,
    });
    context.services.kya = kya;
    context.checkFinders.kya = kya.findVerification;
  },
  routes: kyaRoutes,
};
