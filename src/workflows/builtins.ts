// The built-in workflows every tenant can run without publishing anything (version 1 of each name).
import type { WorkflowDefinition } from './definition.ts';

export const BUILT_IN_WORKFLOWS: Readonly<Record<string, WorkflowDefinition>> = {
  // KYC with AML: the input is a KYC verification request body; the name is always screened.
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
    ],
    decision: {
      rules: [
        { when: [{ ref: '$steps.identity.status', equals: 'failed' }], decision: 'rejected' },
        { when: [{ ref: '$steps.identity.status', equals: 'review' }], decision: 'review' },
      ],
      otherwise: 'approved',
    },
  },
  // KYB, then every officer and owner the verification found (in the registry or the request) screened and stored.
  business_onboarding: {
    steps: [
      { id: 'business', kind: 'kyb', input: '$input' },
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
        { when: [{ ref: '$steps.screen_parties.status', equals: 'potential_match' }], decision: 'review' },
        { when: [{ ref: '$steps.business.status', equals: 'review' }], decision: 'review' },
      ],
      otherwise: 'approved',
    },
  },
  // KYA: the input is a KYA verification request body.
  agent_onboarding: {
    steps: [{ id: 'agent', kind: 'kya', input: '$input' }],
    decision: {
      rules: [
        { when: [{ ref: '$steps.agent.action', equals: 'block' }], decision: 'rejected' },
        { when: [{ ref: '$steps.agent.action', equals: 'review' }], decision: 'review' },
      ],
      otherwise: 'approved',
    },
  },
};

export const BUILT_IN_VERSION = 1;
