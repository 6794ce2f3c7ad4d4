// The engine without HTTP: checking definitions, step order, references, fan-out and the decision rule.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_WORKFLOWS } from '../../src/workflows/builtins.ts';
import type { WorkflowDefinition } from '../../src/workflows/definition.ts';
import { checkDefinition, decide, executionOrder, fanOutItems, materialise } from '../../src/workflows/engine.ts';
import { STEP_OUTPUTS } from '../../src/workflows/steps.ts';

const approveAll: WorkflowDefinition['decision'] = { rules: [], otherwise: 'approved' };
const check = (definition: WorkflowDefinition) => checkDefinition(definition, STEP_OUTPUTS);

describe('checking a definition', () => {
  it('accepts every built-in', () => {
    for (const definition of Object.values(BUILT_IN_WORKFLOWS)) expect(check(definition)).toEqual([]);
  });

  it('names the step that closes a cycle, and a step reading itself', () => {
    const cycle = check({
      steps: [
        { id: 'a', kind: 'aml', input: { name: '$steps.b.query.name' } },
        { id: 'b', kind: 'aml', input: { name: '$steps.a.query.name' } },
      ],
      decision: approveAll,
    });
    expect(cycle).toEqual([{ path: '/steps/1', message: 'steps depend on each other in a cycle: a → b → a' }]);
    const self = check({ steps: [{ id: 'a', kind: 'aml', input: { name: '$steps.a.query.name' } }], decision: approveAll });
    expect(self).toEqual([{ path: '/steps/0', message: 'steps depend on each other in a cycle: a → a' }]);
  });

  it('refuses references to missing steps, missing outputs and $item outside a fan-out, at their paths', () => {
    const issues = check({
      steps: [
        { id: 'business', kind: 'kyb', input: '$input' },
        { id: 'owners', kind: 'aml', forEach: ['$steps.business.company.shareholders'], input: { name: '$item.name' } },
        { id: 'officers', kind: 'aml', forEach: ['$steps.business.company.officers'], input: { name: '$item.fullName', type: '$steps.nobody.x' } },
        { id: 'person', kind: 'aml', input: { name: '$item.name' } },
      ],
      decision: { rules: [{ when: [{ ref: '$steps.business.verdict', equals: 'x' }], decision: 'rejected' }], otherwise: 'approved' },
    });
    expect(issues).toEqual([
      { path: '/steps/1/forEach/0', message: 'step "business" (kyb) has no output company.shareholders' },
      { path: '/steps/2/input/name', message: 'the forEach elements have no output fullName' },
      { path: '/steps/2/input/type', message: 'refers to step "nobody", which the definition does not have' },
      { path: '/steps/3/input/name', message: '$item is only defined inside a step with forEach (its input and where)' },
      { path: '/decision/rules/0/when/0/ref', message: 'step "business" (kyb) has no output verdict' },
    ]);
  });

  it('refuses repeated ids, conditions that test nothing and where without forEach', () => {
    expect(
      check({
        steps: [
          { id: 'a', kind: 'kya', input: '$input', where: [{ ref: '$input.x', exists: true }] },
          { id: 'a', kind: 'kya', input: '$input', when: [{ ref: '$input.x' }] },
        ],
        decision: approveAll,
      }),
    ).toEqual([
      { path: '/steps/1/id', message: 'repeats the step id "a"' },
      { path: '/steps/0/where', message: 'applies only to a step with forEach' },
      { path: '/steps/1/when/0', message: 'needs equals, in or exists' },
    ]);
  });

  it('checks a manual_review step: its checkId must reference an output, and it cannot fan out', () => {
    expect(
      check({
        steps: [
          { id: 'identity', kind: 'kyc', input: '$input' },
          { id: 'review', kind: 'manual_review', input: { checkId: '$steps.identity.chekId' } },
          { id: 'parties', kind: 'manual_review', forEach: ['$steps.identity.aml.matches'], input: { checkId: '$item.entityId' } },
        ],
        decision: { rules: [{ when: [{ ref: '$steps.review.verdict', equals: 'x' }], decision: 'rejected' }], otherwise: 'approved' },
      }),
    ).toEqual([
      { path: '/steps/1/input/checkId', message: 'step "identity" (kyc) has no output chekId' },
      { path: '/steps/2/forEach', message: 'a manual_review step waits for the decision on one check; it cannot fan out' },
      { path: '/decision/rules/0/when/0/ref', message: 'step "review" (manual_review) has no output verdict' },
    ]);
  });
});

describe('running a definition', () => {
  it('runs each step after the steps it reads from, otherwise in the listed order', () => {
    const order = executionOrder({
      steps: [
        { id: 'screen', kind: 'aml', input: { name: '$steps.business.company.name' } },
        { id: 'agent', kind: 'kya', input: '$input.agent' },
        { id: 'business', kind: 'kyb', input: '$input.business' },
      ],
      decision: approveAll,
    });
    expect(order.map((step) => step.id)).toEqual(['agent', 'business', 'screen']);
  });

  it('fans out over the elements a where keeps, and builds each input from its element', () => {
    const step = BUILT_IN_WORKFLOWS.business_onboarding.steps.find((candidate) => candidate.id === 'screen_parties')!;
    const parties = [
      { name: 'Acme Ltd', type: 'organization', role: 'company' },
      { name: 'Alex Example', type: 'person', role: 'officer' },
      { name: 'Holdco Ltd', type: 'organization', role: 'owner' },
    ];
    const scope = { input: {}, outputs: { business: { parties } } };
    const items = fanOutItems(step, scope);
    expect(items.map((item) => materialise(step.input, { ...scope, item }))).toEqual([
      { name: 'Alex Example', type: 'person' },
      { name: 'Holdco Ltd', type: 'organization' },
    ]);
  });

  it('leaves out fields whose reference reaches nothing', () => {
    expect(materialise({ name: '$input.name', dateOfBirth: '$input.dob', type: 'person' }, { input: { name: 'Ann Lee' }, outputs: {} })).toEqual({
      name: 'Ann Lee',
      type: 'person',
    });
  });

  it('decides by the first rule that holds; a condition on a fan-out holds when any of its checks does', () => {
    const definition = BUILT_IN_WORKFLOWS.business_onboarding;
    const run = (status: string, screenings: string[], reviewed?: 'approved' | 'rejected') =>
      decide(definition, {
        input: {},
        outputs: { business: { status }, screen_parties: screenings.map((s) => ({ status: s })), ...(reviewed ? { business_review: { decision: reviewed } } : {}) },
      });
    expect(run('passed', ['clear', 'clear'])).toBe('approved');
    expect(run('passed', ['clear', 'potential_match'])).toBe('review');
    expect(run('failed', ['potential_match'])).toBe('rejected');
    // a KYB check in review is decided by the analyst's decision on it
    expect(run('review', ['clear'], 'approved')).toBe('approved');
    expect(run('review', ['clear'], 'rejected')).toBe('rejected');
    expect(run('review', ['potential_match'], 'approved')).toBe('review');
  });
});
