import type { DomainModule, ServiceName } from './core.ts';
import { accountsModule } from './accounts/module.ts';
import { amlModule } from './aml/module.ts';
import { opsModule } from './ops/module.ts';
import { escrowModule } from './escrow/module.ts';
import { eventsModule } from './events/module.ts';
import { idempotencyModule } from './idempotency/module.ts';
import { kyaModule } from './kya/module.ts';
import { kybModule } from './kyb/module.ts';
import { kycModule } from './kyc/module.ts';
import { sandboxModule } from './sandbox/module.ts';
import { reportsModule } from './reports/module.ts';
import { reviewsModule } from './reviews/module.ts';
import { workflowsModule } from './workflows/module.ts';
import { webhooksModule } from './webhooks/module.ts';
import { usersModule } from './users/module.ts';
import { dashboardModule } from './dashboard/module.ts';
import { oauthModule } from './oauth/module.ts';

/**
 * Every module of the service, registered once. Routes are registered in this order (it is the order of the
 * OpenAPI document); set-up follows each module's `requires`, and migrations their names.
 */
export const MODULES = [
  opsModule,
  oauthModule,
  accountsModule,
  eventsModule,
  idempotencyModule,
  amlModule,
  kycModule,
  escrowModule,
  kybModule,
  kyaModule,
  sandboxModule,
  reportsModule,
  reviewsModule,
  workflowsModule,
  webhooksModule,
  usersModule,
  dashboardModule,
] as readonly DomainModule<unknown, ServiceName>[];

/** Every check kind the modules register. */
export const CHECK_KINDS = MODULES.flatMap((module) => module.checkKinds ?? []);
