import { Type, type Static } from 'typebox';

export const ReportParams = Type.Object({
  code: Type.String({ maxLength: 20, description: 'RPT-001, RPT-002, RPT-003, RPT-KYA, RPT-016; other RPT-nnn codes are planned (501)' }),
  id: Type.String({ maxLength: 100, description: 'The check (chk_, kyb_, aml_, kya_) or, for RPT-016, the bundle (bnd_)' }),
});
export type ReportParams = Static<typeof ReportParams>;

export const BundleRequest = Type.Object(
  {
    checkId: Type.String({ minLength: 1, maxLength: 100, description: 'A check of the caller (chk_, kyb_, aml_ or kya_), or a workflow run (wfr_): the bundle then holds the report of every check of the run' }),
    includeTypes: Type.Optional(
      Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20, description: 'Report codes; omitted: the report type of the check' }),
    ),
    regulatorRef: Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f\\u007f]+$', description: "The regulator's reference for the submission" }),
  },
  { additionalProperties: false },
);
export type BundleRequest = Static<typeof BundleRequest>;

export const BundleResponse = Type.Object({
  bundleId: Type.String(),
  status: Type.Union([Type.Literal('generating'), Type.Literal('ready'), Type.Literal('failed')]),
  checkId: Type.String(),
  regulatorRef: Type.String(),
  includeTypes: Type.Array(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  failureReason: Type.Optional(Type.String()),
  archive: Type.Optional(Type.Object({ bytes: Type.Integer(), sha256: Type.String(), url: Type.String() })),
});

export const BundleParams = Type.Object({ bundleId: Type.String({ maxLength: 100 }) });
export type BundleParams = Static<typeof BundleParams>;

/** A binary answer, for the OpenAPI document (the bytes are sent as they are). */
export function binaryResponse(contentType: string, description: string) {
  return { description, content: { [contentType]: { schema: { type: 'string', format: 'binary' } } } };
}
