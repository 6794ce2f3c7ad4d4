import { Type, type Static } from 'typebox';
import { Review } from '../reviews/schemas.ts';

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const KyaAgent = Type.Object(
  {
    id: Type.Optional(Text("The agent's identifier at its operator")),
    name: Type.Optional(Text('Display name of the agent')),
    operator: Type.Optional(Text('Who runs the agent')),
  },
  { additionalProperties: false },
);
export type KyaAgent = Static<typeof KyaAgent>;

// No maxLength on prompt: the limit is 32,000 characters counted as code points, which a JSON-schema length
// (UTF-16 units in Ajv) would count differently; the engine's count answers 413 payload_too_large.
export const KyaVerifyRequest = Type.Object(
  {
    prompt: Type.Optional(
      Type.String({ description: 'The prompt to screen, at most 32,000 characters; omit it for an identity-only certificate' }),
    ),
    agent: Type.Optional(KyaAgent),
  },
  { additionalProperties: false },
);
export type KyaVerifyRequest = Static<typeof KyaVerifyRequest>;

const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('live')], { description: 'sandbox when a test key was used' });
const Action = Type.Union([Type.Literal('allow'), Type.Literal('review'), Type.Literal('block'), Type.Literal('identity_only')]);
const CertificateAction = Type.Union([Type.Literal('allow'), Type.Literal('identity_only')]);

export const KyaScreening = Type.Object(
  {
    outcome: Type.Union([Type.Literal('blocked'), Type.Literal('review'), Type.Literal('passed_screening'), Type.Literal('not_screened')]),
    engine: Type.Union([Type.String(), Type.Null()], { description: 'Engine and version that screened the prompt; null when nothing screened' }),
    modelVerdict: Type.Boolean({ description: 'Whether a screening model produced the verdict' }),
    injectionScore: Type.Union([Type.Number(), Type.Null()], {
      description: "The model's probability that the prompt is an injection; null when no model screened it",
    }),
    signatures: Type.Array(Type.String(), { description: 'Ids of the signatures the prompt matched' }),
  },
  { description: 'Present on every KYA verify response' },
);

const certificateFields = {
  id: Type.String({ description: 'cert_…' }),
  alg: Type.Union([Type.Literal('EdDSA'), Type.Literal('none')], { description: 'none: an unsigned sandbox certificate' }),
  agent: KyaAgent,
  action: CertificateAction,
  environment: Environment,
  issuedAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
};

export const KyaCertificate = Type.Object(
  {
    ...certificateFields,
    token: Type.String({ description: 'Compact JWS (EdDSA, verifiable with /.well-known/jwks.json), or an unsigned JWT for alg none' }),
  },
  { description: 'Issued only for action allow and identity_only' },
);
export type KyaCertificate = Static<typeof KyaCertificate>;

/** A certificate as a verification record names it: without the token, which is a credential. */
export const KyaCertificateSummary = Type.Object(certificateFields);
export type KyaCertificateSummary = Static<typeof KyaCertificateSummary>;

export const KyaVerifyResponse = Type.Object({
  verificationId: Type.String({ description: 'kya_…' }),
  allowed: Type.Boolean({ description: 'true only when a screening model passed the prompt' }),
  action: Action,
  screening: KyaScreening,
  environment: Environment,
  certificate: Type.Optional(KyaCertificate),
});
export type KyaVerifyResponse = Static<typeof KyaVerifyResponse>;

export const KyaNotScreenedBody = Type.Object(
  {
    code: Type.Literal('not_screened'),
    message: Type.String(),
    requestId: Type.String(),
    verificationId: Type.String({ description: 'The stored (unbilled) verification, for the audit trail' }),
    screening: KyaScreening,
  },
  { description: 'No model verdict and no blocking signature (`not_screened`): nothing is allowed or issued' },
);

export const KyaVerificationRecord = Type.Object({
  review: Type.Optional(Review),
  verificationId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  environment: Environment,
  allowed: Type.Boolean(),
  action: Type.Union([Action, Type.Null()], { description: 'null when the answer was 503 not_screened' }),
  screening: KyaScreening,
  agent: KyaAgent,
  promptSha256: Type.Union([Type.String(), Type.Null()], { description: "SHA-256 (hex) of the prompt's UTF-8 bytes; null without a prompt" }),
  promptLength: Type.Union([Type.Integer(), Type.Null()], { description: 'In characters (code points); null without a prompt' }),
  prompt: Type.Optional(Type.String({ description: 'Only when the operator keeps prompts (KYX_KEEP_PROMPTS)' })),
  certificate: Type.Optional(KyaCertificateSummary),
});
export type KyaVerificationRecord = Static<typeof KyaVerificationRecord>;

export const KyaIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export type KyaIdParams = Static<typeof KyaIdParams>;
