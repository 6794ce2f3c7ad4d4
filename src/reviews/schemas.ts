import { type Static, Type } from 'typebox';

export const Decision = Type.Union([Type.Literal('approved'), Type.Literal('rejected')]);

/** What a check carries once a person decided it (GET of any check kind, its report and its evidence bundle). */
export const Review = Type.Object(
  {
    decision: Decision,
    reason: Type.String(),
    decidedBy: Type.String({ description: 'The user (usr_…), API key (key_…) or token subject that decided' }),
    decidedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'The one human decision on a check whose outcome awaited it' },
);

export const DecisionParams = Type.Object({ checkId: Type.String({ minLength: 1, maxLength: 100 }) });
export type DecisionParams = Static<typeof DecisionParams>;

export const DecisionRequest = Type.Object(
  {
    decision: Decision,
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why; shown in the report and the evidence bundle' }),
  },
  { additionalProperties: false },
);
export type DecisionRequest = Static<typeof DecisionRequest>;

export const DecisionResponse = Type.Object({
  checkId: Type.String(),
  kind: Type.String({ description: 'kyc, kyb, aml or kya' }),
  status: Type.String({ description: "The check's automated outcome, which stays as it was" }),
  review: Review,
});
export type DecisionResponse = Static<typeof DecisionResponse>;
