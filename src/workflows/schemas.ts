// Request and response schemas of the workflow routes; the definition's own schema is in definition.ts.
import { Type, type Static } from 'typebox';
import { DecisionSchema, StepKindSchema, WorkflowDefinition } from './definition.ts';

const WorkflowName = Type.String({
  pattern: '^(?!runs$)[a-z][a-z0-9_]{0,63}$',
  description: 'Lower case letters, digits and _, starting with a letter (not "runs")',
});

export const PublishRequest = Type.Object({ name: WorkflowName, definition: WorkflowDefinition }, { additionalProperties: false });
export type PublishRequest = Static<typeof PublishRequest>;

export const PublishedWorkflow = Type.Object({
  name: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  builtIn: Type.Boolean(),
  definition: WorkflowDefinition,
  createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null for a built-in' }),
});

export const WorkflowList = Type.Object({ data: Type.Array(PublishedWorkflow, { description: 'Built-ins, then the latest version of each of yours' }) });

export const WorkflowParams = Type.Object({ name: WorkflowName });
export type WorkflowParams = Static<typeof WorkflowParams>;

export const WorkflowQuery = Type.Object(
  { version: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'A published version (default: the latest)' })) },
  { additionalProperties: false },
);
export type WorkflowQuery = Static<typeof WorkflowQuery>;

export const RunRequest = Type.Object(
  { input: Type.Unknown({ description: "The run's input: for a built-in, the body its first step's endpoint takes" }) },
  { additionalProperties: false, required: ['input'] },
);
export type RunRequest = Static<typeof RunRequest>;

const RunStatus = Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('review'), Type.Literal('failed')]);

export const RunStarted = Type.Object({
  runId: Type.String({ description: 'wfr_…' }),
  workflow: Type.String(),
  version: Type.Integer(),
  status: RunStatus,
});

export const Run = Type.Object({
  runId: Type.String({ description: 'wfr_…' }),
  workflow: Type.String(),
  version: Type.Integer({ description: 'The version the run started on and finishes on' }),
  status: RunStatus,
  decision: Type.Union([DecisionSchema, Type.Null()], { description: 'null while running or after a failure' }),
  steps: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: StepKindSchema,
      status: Type.Union([Type.Literal('pending'), Type.Literal('waiting'), Type.Literal('completed'), Type.Literal('skipped'), Type.Literal('failed')], {
        description: 'waiting: a manual_review step waiting for the decision on its check (the run is then in review)',
      }),
      checkId: Type.Optional(Type.String({ description: 'The check the step created (GET it from its own endpoint), or the check a manual_review step decides' })),
      checkIds: Type.Optional(Type.Array(Type.String(), { description: 'Every check of a forEach step' })),
      error: Type.Optional(Type.String({ description: 'Why the step failed' })),
    }),
  ),
  startedAt: Type.String({ format: 'date-time' }),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const RunParams = Type.Object({ runId: Type.String({ maxLength: 64, description: 'wfr_…' }) });

export const RunListQuery = Type.Object(
  {
    checkId: Type.Optional(Type.String({ maxLength: 64, description: 'Only the run that created this check' })),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'At most 100 (default 20)' })),
  },
  { additionalProperties: false },
);
export type RunListQuery = Static<typeof RunListQuery>;

export const RunList = Type.Object({ data: Type.Array(Run, { description: 'Newest first' }) });
