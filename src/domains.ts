import type { DomainModule } from './modules.ts';
import { accountsModule } from './accounts/module.ts';
import { amlModule } from './aml/module.ts';
import { opsModule } from './ops/module.ts';
import { escrowModule } from './escrow/module.ts';
import { kyaModule } from './kya/module.ts';
import { kybModule } from './kyb/module.ts';
import { kycModule } from './kyc/module.ts';
import { sandboxModule } from './sandbox/module.ts';
import { reportsModule } from './reports/module.ts';

/** Every domain of the service, in the order their migrations and setup run. */
export const DOMAINS: DomainModule[] = [opsModule, accountsModule, amlModule, kycModule, escrowModule, kybModule, kyaModule, sandboxModule, reportsModule];
