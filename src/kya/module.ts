import type { DomainModule } from '../core.ts';
import { kyaCheckKind } from './kind.ts';
import { kyaMigrations } from './migrations.ts';
import { loadEmbeddedModel } from './model.ts';
import { startOnnxModel } from './onnx.ts';
import { createCertificateRepository } from './repository.ts';
import { kyaRoutes } from './routes.ts';
import { type KyaService, createKyaService } from './service.ts';
import { prepareSignatures } from './signatures.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    kya: KyaService;
  }
}

export const kyaModule: DomainModule<KyaService> = {
  name: 'kya',
  migrations: kyaMigrations,
  checkKinds: [kyaCheckKind],
  async setup({ config, checks, keyring, storage, closers }) {
    // An operator's model is started and tried now, so that one that cannot serve stops the start (exit 2).
    const onnx = config.kya.onnx ? await startOnnxModel(config.kya.onnx) : null;
    if (onnx) closers.push(() => onnx.close());
    // Built here rather than at import (where every CLI command paid for it) or at a first prompt (a request's latency).
    prepareSignatures();
    return createKyaService({
      checks,
      certificates: createCertificateRepository(storage.db),
      keyring,
      issuer: config.baseUrl,
      // The keyring keeps a retired key in the JWKS for tokenTtlSeconds: a certificate living longer could
      // outlive the key that verifies it after a rotation.
      certificateLifetimeSeconds: config.tokenTtlSeconds,
      keepPrompts: config.kya.keepPrompts,
      thresholds: config.kya.thresholds,
      loadModel: onnx ? () => onnx : loadEmbeddedModel,
    });
  },
  routes: kyaRoutes,
};
