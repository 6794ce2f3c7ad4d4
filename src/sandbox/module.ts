import type { DomainModule } from '../modules.ts';
import { sandboxRoutes } from './routes.ts';

export const sandboxModule: DomainModule = { name: 'sandbox', routes: sandboxRoutes };
