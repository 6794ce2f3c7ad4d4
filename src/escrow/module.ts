import type { DomainModule } from '../core.ts';
import { escrowMigrations } from './migrations.ts';
import { escrowRoutes } from './routes.ts';
import { type EscrowService, createEscrowService } from './service.ts';

declare module '../core.ts' {
  interface ModuleServices {
    escrow: EscrowService;
  }
}

export const escrowModule: DomainModule<EscrowService> = {
  name: 'escrow',
  migrations: escrowMigrations,
  setup: async (platform) => createEscrowService(platform),
  routes: escrowRoutes,
};
