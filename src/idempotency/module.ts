import type { DomainModule } from '../core.ts';
import { idempotencyMigrations } from './migrations.ts';
import { type IdempotencyService, createIdempotencyService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    idempotency: IdempotencyService;
  }
}

const HOUR_MS = 3_600_000;

/**
 * Stores keys and answers; src/http/idempotency.ts applies them to every POST under /api/v1 (an HTTP concern of
 * every route, so it is registered with the gate rather than by this module's own routes).
 */
export const idempotencyModule: DomainModule<IdempotencyService> = {
  name: 'idempotency',
  migrations: idempotencyMigrations,
  async setup(platform) {
    const service = createIdempotencyService(platform.storage.db, {
      ttlMs: 24 * HOUR_MS,
      // Longer than any request takes (a KYC check is seconds); an owner gone this long is taken for dead.
      leaseMs: 120_000,
      waitMs: 10_000,
      pollMs: 25,
    });
    const purge = setInterval(() => void service.purgeExpired().catch(() => undefined), HOUR_MS);
    purge.unref();
    platform.closers.push(async () => clearInterval(purge));
    return service;
  },
};
