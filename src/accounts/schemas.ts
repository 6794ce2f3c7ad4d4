import { Type, type Static } from 'typebox';
import { SCOPES, type Scope } from './scopes.ts';

const Permission = Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES] });
const Environment = Type.Union([Type.Literal('test'), Type.Literal('live')]);

export const ValidateResponse = Type.Object({
  valid: Type.Literal(true),
  accountId: Type.String(),
  keyId: Type.String(),
  environment: Environment,
  permissions: Type.Array(Permission),
});
export type ValidateResponse = Static<typeof ValidateResponse>;

export const ValidateKeyResponse = Type.Object({
  valid: Type.Literal(true),
  keyId: Type.String(),
  accountId: Type.String(),
  environment: Environment,
  plan: Type.Object({ id: Type.String(), name: Type.String() }),
  permissions: Type.Array(Permission),
  limits: Type.Object({
    requestsPerMonth: Type.Integer({ description: '-1 when the plan has no monthly allowance' }),
    requestsPerDay: Type.Integer({ description: '-1 when the plan has no daily cap' }),
    advisoryPerMinute: Type.Integer({ description: 'Advisory only, never enforced' }),
  }),
  usage: Type.Object({
    today: Type.Integer({ description: 'Requests counted today (UTC), this one included' }),
    thisMonth: Type.Integer({ description: 'Requests counted this UTC month, this one included' }),
    kycChecks: Type.Integer({ description: 'Billable live KYC checks this month' }),
    kybChecks: Type.Integer(),
    amlScreenings: Type.Integer(),
    kyaChecks: Type.Integer(),
  }),
});
export type ValidateKeyResponse = Static<typeof ValidateKeyResponse>;

export const Jwks = Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) });
