/** -1 means the plan has no such ceiling (the contract's spelling of "unlimited"). */
export const UNLIMITED = -1;

export interface Plan {
  id: PlanId;
  name: string;
  requestsPerDay: number;
  requestsPerMonth: number;
  /** Advisory per-minute figure sent as X-RateLimit-Limit; informational, never enforced. */
  advisoryPerMinute: number;
}

export const PLAN_IDS = ['developer_sandbox', 'micro', 'growth', 'scale', 'enterprise', 'essential', 'plus', 'elite'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

// Consumer plans: the specification gives only their monthly allowance; the contract sets their daily cap to 100.
// Their advisory figure is not given anywhere: they get the Developer Sandbox figure, the smallest one published.
export const PLANS: Record<PlanId, Plan> = {
  developer_sandbox: { id: 'developer_sandbox', name: 'Developer Sandbox', requestsPerDay: 100, requestsPerMonth: 1_000, advisoryPerMinute: 60 },
  micro: { id: 'micro', name: 'Micro', requestsPerDay: 5_000, requestsPerMonth: 10_000, advisoryPerMinute: 120 },
  growth: { id: 'growth', name: 'Growth', requestsPerDay: 25_000, requestsPerMonth: 50_000, advisoryPerMinute: 600 },
  scale: { id: 'scale', name: 'Scale', requestsPerDay: 100_000, requestsPerMonth: 150_000, advisoryPerMinute: 2_000 },
  enterprise: { id: 'enterprise', name: 'Enterprise', requestsPerDay: UNLIMITED, requestsPerMonth: UNLIMITED, advisoryPerMinute: 10_000 },
  essential: { id: 'essential', name: 'Essential', requestsPerDay: 100, requestsPerMonth: 1_000, advisoryPerMinute: 60 },
  plus: { id: 'plus', name: 'Plus', requestsPerDay: 100, requestsPerMonth: 1_000, advisoryPerMinute: 60 },
  elite: { id: 'elite', name: 'Elite', requestsPerDay: 100, requestsPerMonth: 1_000, advisoryPerMinute: 60 },
};

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export interface Limits {
  requestsPerDay: number;
  requestsPerMonth: number;
  advisoryPerMinute: number;
}

/** The plan's figures with the account's contract overrides applied. */
export function effectiveLimits(
  planId: PlanId,
  overrides: { dailyCap: number | null; monthlyQuota: number | null },
): Limits {
  const plan = PLANS[planId];
  return {
    requestsPerDay: overrides.dailyCap ?? plan.requestsPerDay,
    requestsPerMonth: overrides.monthlyQuota ?? plan.requestsPerMonth,
    advisoryPerMinute: plan.advisoryPerMinute,
  };
}
