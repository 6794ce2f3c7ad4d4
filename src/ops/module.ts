import type { DomainModule } from '../core.ts';
import { opsRoutes } from './routes.ts';

export const opsModule: DomainModule = { name: 'ops', routes: opsRoutes };
