// The built-in workflows every tenant can run without publishing anything (version 1 of each name).
import type { WorkflowDefinition } from './definition.ts';

export const BUILT_IN_WORKFLOWS: Readonly<Record<string, WorkflowDefinition>> = {
  // KYC with AML: the input is a KYC verification request body; the name is always screened. A check in review
  // waits for an analyst, whose decision decides the run.
  individual_onboarding: {
    steps: [
      {
        id: 'identity',
        kind: 'kyc',
        input: {
          documentType: '$input.documentType',
          documentImage: '$input.documentImage',
          selfieImage: '$input.selfieImage',
          metadata: '$input.metadata',
          amlScreening: true,
        },
      },
      {
        id: 'identity_review',
        kind: 'manual_review',
        when: [{ ref: '$steps.identity.status', equals: 'review' }],
        input: { checkId: '$steps.identity.checkId' },
      },
    ],
    decision: {
      rules: [
        { when: [{ ref: '$steps.identity.status', equals: 'failed' }], decision: 'rejected' },
        { when: [{ ref: '$steps.identity_review.decision', equals: 'rejected' }], decision: 'rejected' },
      ],
      otherwise: 'approved',
    },
  },
  // KYB, then every officer and owner the verification found (in the registry or the request) screened and stored.
  // A KYB check in review waits for an analyst; a party that may be listed leaves the run in review.
  business_onboarding: {
    steps: [
      { id: 'business', kind: 'kyb', input: '$input' },
      {
        id: 'business_review',
        kind: 'manual_review',
        when: [{ ref: '$steps.business.status', equals: 'review' }],
        input: { checkId: '$steps.business.kybId' },
      },
      {
        id: 'screen_parties',
        kind: 'aml',
        forEach: ['$steps.business.parties'],
        where: [{ ref: '$item.role', in: ['officer', 'owner'] }],
        input: { name: '$item.name', type: '$item.type' },
      },
    ],
    decision: {
      rules: [
        { when: [{ ref: '$steps.business.status', equals: 'failed' }], decision: 'rejected' },
        { when: [{ ref: '$steps.business_review.decision', equals: 'rejected' }], decision: 'rejected' },
        { when: [{ ref: '$steps.screen_parties.status', equals: 'potential_match' }], decision: 'review' },
      ],
      otherwise: 'approved',
    },
  },
  // KYA: the input is a KYA verification request body. A prompt sent to review waits for an analyst.
  agent_onboarding: {
    steps: [
      { id: 'agent', kind: 'kya', input: '$input' },
      {
        id: 'agent_review',
        kind: 'manual_review',
        when: [{ ref: '$steps.agent.action', equals: 'review' }],
        input: { checkId: '$steps.agent.verificationId' },
      },
    ],
    decision: {
      rules: [
        { when: [{ ref: '$steps.agent.action', equals: 'block' }], decision: 'rejected' },
        { when: [{ ref: '$steps.agent_review.decision', equals: 'rejected' }], decision: 'rejected' },
      ],
      otherwise: 'approved',
    },
  },
};

/** Version 2 added the manual_review steps; a run started on version 1 finishes on the definition it stored. */
export const BUILT_IN_VERSION = 2;
