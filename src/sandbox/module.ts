import type { DomainModule } from '../core.ts';
import { sandboxRoutes } from './routes.ts';

export const sandboxModule: DomainModule = { name: 'sandbox', routes: sandboxRoutes };
