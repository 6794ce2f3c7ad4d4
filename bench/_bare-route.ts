import { SCOPES } from '../src/accounts/scopes.ts';

/** What the bare Fastify baseline answers on /api/v1/validate-key: the same JSON as kyx's answer, made once. */
export const BARE_VALIDATE_KEY_BODY = {
  valid: true,
  keyId: 'key_x',
  accountId: 'acct_x',
  environment: 'live',
  plan: { id: 'enterprise', name: 'Enterprise' },
  permissions: [...SCOPES],
  limits: { requestsPerMonth: -1, requestsPerDay: -1, advisoryPerMinute: 10000 },
  usage: { today: 1, thisMonth: 1, kycChecks: 0, kybChecks: 0, amlScreenings: 0, kyaChecks: 0 },
};
