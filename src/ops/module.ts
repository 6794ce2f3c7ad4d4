import type { DomainModule } from '../modules.ts';
import { opsRoutes } from './routes.ts';

export const opsModule: DomainModule = { name: 'ops', routes: opsRoutes };
