// The declarative workflow document: its JSON Schema (part of the OpenAPI document) and its types.
//
// A value in a step's `input` (or a condition's `ref`) that is a string starting with `$` is a reference:
// `$input…` (the run's input), `$steps.<stepId>…` (an earlier step's output: the check it stored, or for a step
// with `forEach` the list of them) or `$item…` (the element a `forEach` step is on). A reference walks object
// fields by name and maps over arrays, so `$steps.business.parties.name` is every party's name.
import { Type, type Static } from 'typebox';

export const StepKindSchema = Type.Union(
  [Type.Literal('kyc'), Type.Literal('kyb'), Type.Literal('aml'), Type.Literal('kya'), Type.Literal('manual_review')],
  {
    description:
      'kyc, kyb, aml, kya: the check the step creates, exactly as its own endpoint would; manual_review: waits for the ' +
      'human decision on an earlier check ({checkId}) made through POST /api/v1/checks/{checkId}/decision or the dashboard',
  },
);
export type StepKind = Static<typeof StepKindSchema>;

export const DecisionSchema = Type.Union([Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('review')]);
export type Decision = Static<typeof DecisionSchema>;

const Reference = Type.String({ pattern: '^\\$(input|item|steps\\.[a-z][a-z0-9_]*)(\\.[A-Za-z0-9_]+)*$', description: '$input…, $steps.<stepId>… or $item…' });

export const Condition = Type.Object(
  {
    ref: Reference,
    equals: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
    in: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), { minItems: 1, maxItems: 50 })),
    exists: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description: 'Holds when any value the reference reaches equals `equals`, is one of `in`, or (with `exists`) when it reaches a value or not',
  },
);
export type Condition = Static<typeof Condition>;

/** All must hold. */
const Conditions = Type.Array(Condition, { minItems: 1, maxItems: 20 });

export const WorkflowStep = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 }),
    kind: StepKindSchema,
    input: Type.Unknown({ description: "The step's request body: a reference, or JSON whose string values may be references" }),
    forEach: Type.Optional(Type.Array(Reference, { minItems: 1, maxItems: 10, description: 'One check per element of these lists, all in one step' })),
    where: Type.Optional(Type.Array(Condition, { minItems: 1, maxItems: 20, description: 'With forEach: only the elements ($item) these hold for' })),
    when: Type.Optional(Type.Array(Condition, { minItems: 1, maxItems: 20, description: 'The step runs only if these hold; otherwise it is skipped' })),
  },
  { additionalProperties: false },
);
export type WorkflowStep = Static<typeof WorkflowStep>;

export const WorkflowDefinition = Type.Object(
  {
    steps: Type.Array(WorkflowStep, { minItems: 1, maxItems: 20 }),
    decision: Type.Object(
      {
        rules: Type.Array(
          Type.Object({ when: Conditions, decision: DecisionSchema }, { additionalProperties: false }),
          { maxItems: 50, description: 'The first rule whose conditions all hold decides' },
        ),
        otherwise: DecisionSchema,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type WorkflowDefinition = Static<typeof WorkflowDefinition>;
