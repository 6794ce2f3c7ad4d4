export const SCOPES = [
  'kyc:write',
  'kyc:read',
  'kyb:write',
  'kyb:read',
  'aml:screen',
  'aml:read',
  'kya:verify',
  'kya:read',
  'reports:read',
  'bundles:write',
  'escrow:read',
  'workflows:run',
  'workflows:read',
  'workflows:write',
  'reviews:write',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
