import type { DomainModule } from '../core.ts';
import { escrowMigrations } from './migrations.ts';
import { escrowRoutes } from './routes.ts';

export const escrowModule: DomainModule = { name: 'escrow', migrations: escrowMigrations, routes: escrowRoutes };
