import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { DomainModule, ModuleServices, StoredCheck } from '../core.ts';
import { registerDashboardAccess } from './access.ts';
import { checkRoutes } from './routes/checks.ts';
import { escrowRoutes } from './routes/escrows.ts';
import { keyRoutes } from './routes/keys.ts';
import { kyaRoutes } from './routes/kya.ts';
import { listRoutes } from './routes/lists.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { overviewRoutes } from './routes/overview.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { securityRoutes } from './routes/security.ts';
import { signInRoutes } from './routes/sign-in.ts';
import { userRoutes } from './routes/users.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { workflowRoutes } from './routes/workflows.ts';

const ASSETS = {
  'app.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/app.css', import.meta.url)) },
  'app.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./assets/app.js', import.meta.url)) },
};

type Requires = 'accounts' | 'users' | 'reviews' | 'reports' | 'kya' | 'aml' | 'escrow' | 'oauth' | 'workflows' | 'webhooks';
/** The dashboard has no service of its own: its pages work through the services it requires. */
type DashboardServices = Pick<ModuleServices, Requires>;

/**
 * The console where a tenant's people work, served under /dashboard: server-rendered pages over the same services
 * the API uses, with the signed-in user as the actor of every action.
 */
export const dashboardModule: DomainModule<DashboardServices, Requires> = {
  name: 'dashboard',
  requires: ['accounts', 'users', 'reviews', 'reports', 'kya', 'aml', 'escrow', 'oauth', 'workflows', 'webhooks'],
  setup: async (_platform, services) => services,
  async routes(app, { platform, service: services }) {
    await app.register(cookie);
    await app.register(formbody);
    registerDashboardAccess(app, services.users);
    const labelOf = (check: StoredCheck) => platform.checks.kindOf(check.id)?.label ?? check.kind;

    app.get<{ Params: { file: keyof typeof ASSETS } }>(
      '/dashboard/assets/:file',
      { config: { dashboard: 'public' }, schema: { hide: true, params: { type: 'object', properties: { file: { enum: Object.keys(ASSETS) } }, required: ['file'] } } },
      async (request, reply) => {
        const asset = ASSETS[request.params.file];
        return reply.header('Cache-Control', 'public, max-age=300').type(asset.type).send(asset.body);
      },
    );

    await signInRoutes(app, { users: services.users, secureCookies: platform.config.baseUrl.startsWith('https:') });
    await overviewRoutes(app, { accounts: services.accounts, webhooks: services.webhooks });
    await checkRoutes(app, { checks: platform.checks, reports: services.reports, users: services.users, workflows: services.workflows });
    await workflowRoutes(app, { workflows: services.workflows, reports: services.reports, users: services.users });
    await reviewRoutes(app, { reviews: services.reviews, users: services.users, labelOf });
    await kyaRoutes(app, { kya: services.kya, checks: platform.checks, users: services.users, labelOf });
    await listRoutes(app, { aml: services.aml });
    await escrowRoutes(app, { escrow: services.escrow, users: services.users });
    await keyRoutes(app, { accounts: services.accounts, users: services.users });
    await userRoutes(app, { users: services.users });
    await securityRoutes(app, { users: services.users });
    await oauthRoutes(app, { oauth: services.oauth, users: services.users });
    await webhookRoutes(app, { webhooks: services.webhooks, users: services.users });
  },
};
