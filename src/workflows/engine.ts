// The workflow engine as plain functions over data: checking a definition (references, outputs, cycles), the
// order its steps run in, a step's input from the run so far, conditions, and the rule that decides the run.
import type { TSchema } from 'typebox';
import type { FieldIssue } from '../errors.ts';
import type { Condition, Decision, StepKind, WorkflowDefinition, WorkflowStep } from './definition.ts';

/** What a reference may read: the run's input, the outputs of the steps so far, the element a fan-out is on. */
export interface Scope {
  input: unknown;
  /** By step id: the check's public record, or for a `forEach` step the list of them; absent for a skipped step. */
  outputs: Record<string, unknown>;
  item?: unknown;
}

interface Reference {
  root: 'input' | 'steps' | 'item';
  /** For `$steps.<id>…`. */
  stepId?: string;
  path: string[];
}

function parseReference(text: string): Reference {
  const [root, ...rest] = text.slice(1).split('.');
  if (root === 'steps') return { root, stepId: rest[0], path: rest.slice(1) };
  return { root: root as 'input' | 'item', path: rest };
}

const isReference = (value: unknown): value is string => typeof value === 'string' && value.startsWith('$');

/** Walks object fields by name and maps over arrays; undefined where the path leads nowhere. */
function walk(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return value;
  if (Array.isArray(value)) return value.map((element) => walk(element, path)).filter((element) => element !== undefined);
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, path[0])) {
    return walk((value as Record<string, unknown>)[path[0]], path.slice(1));
  }
  return undefined;
}

export function resolveReference(text: string, scope: Scope): unknown {
  const reference = parseReference(text);
  const start = reference.root === 'input' ? scope.input : reference.root === 'item' ? scope.item : scope.outputs[reference.stepId!];
  return walk(start, reference.path);
}

/** Every value a reference reaches, lists flattened. */
function valuesOf(text: string, scope: Scope): unknown[] {
  const value = resolveReference(text, scope);
  return value === undefined ? [] : [value].flat(Infinity);
}

/** The JSON a step's `input` describes, its references replaced by what they reach (fields reaching nothing left out). */
export function materialise(template: unknown, scope: Scope): unknown {
  if (isReference(template)) return resolveReference(template, scope);
  if (Array.isArray(template)) return template.map((element) => materialise(element, scope)).filter((element) => element !== undefined);
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(
      Object.entries(template)
        .map(([key, value]) => [key, materialise(value, scope)] as const)
        .filter(([, value]) => value !== undefined),
    );
  }
  return template;
}

export function holds(condition: Condition, scope: Scope): boolean {
  const values = valuesOf(condition.ref, scope);
  if (condition.exists !== undefined && (values.length > 0) !== condition.exists) return false;
  if ('equals' in condition && !values.some((value) => value === condition.equals)) return false;
  if (condition.in !== undefined && !values.some((value) => condition.in!.includes(value as never))) return false;
  return true;
}

export const allHold = (conditions: readonly Condition[] | undefined, scope: Scope): boolean => (conditions ?? []).every((condition) => holds(condition, scope));

/** The elements a `forEach` step runs on: every value its lists reach, in order, that its `where` holds for. */
export function fanOutItems(step: WorkflowStep, scope: Scope): unknown[] {
  const items = (step.forEach ?? []).flatMap((reference) => valuesOf(reference, scope));
  return items.filter((item) => allHold(step.where, { ...scope, item }));
}

/** The run's decision from the step outputs: the first rule whose conditions all hold, else `otherwise`. */
export function decide(definition: WorkflowDefinition, scope: Scope): Decision {
  return definition.decision.rules.find((rule) => allHold(rule.when, scope))?.decision ?? definition.decision.otherwise;
}

// --- Checking a definition -------------------------------------------------------------------------------------

/** The JSON Schema of what a step of each kind outputs (the check's public record), so references can be checked. */
export type OutputSchemas = Record<StepKind, TSchema>;

interface SchemaNode {
  type?: string;
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
}

/** The schemas a path reaches inside `schema` (mapping over arrays as `walk` does); none when it names no field. */
function reachable(schema: SchemaNode, path: readonly string[]): SchemaNode[] {
  if (schema.anyOf) return schema.anyOf.flatMap((branch) => reachable(branch, path));
  if (path.length === 0) return [schema];
  if (schema.type === 'array') return schema.items ? reachable(schema.items, path) : [{}];
  if (schema.type === 'object') {
    const field = schema.properties?.[path[0]];
    if (field) return reachable(field, path.slice(1));
    // A map of free keys (a Record, or additional properties allowed) may hold any field.
    return schema.patternProperties || schema.additionalProperties === true ? [{}] : [];
  }
  return schema.type === undefined ? [{}] : [];
}

/** The element schema of a list a `forEach` reference reaches. */
function elementOf(schema: SchemaNode): SchemaNode {
  if (schema.type === 'array') return schema.items ? elementOf(schema.items) : {};
  if (schema.anyOf) return { anyOf: schema.anyOf.map(elementOf) };
  return schema;
}

function pointer(...parts: (string | number)[]): string {
  return parts.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Every reference in an input template, with its JSON Pointer relative to the template. */
function referencesIn(template: unknown, at: string): { text: string; path: string }[] {
  if (isReference(template)) return [{ text: template, path: at }];
  if (Array.isArray(template)) return template.flatMap((element, index) => referencesIn(element, `${at}${pointer(index)}`));
  if (template !== null && typeof template === 'object') {
    return Object.entries(template).flatMap(([key, value]) => referencesIn(value, `${at}${pointer(key)}`));
  }
  return [];
}

const conditionReferences = (conditions: readonly Condition[] | undefined, at: string) =>
  (conditions ?? []).map((condition, index) => ({ text: condition.ref, path: `${at}${pointer(index, 'ref')}` }));

/**
 * What is wrong with a definition the schema accepted: duplicate step ids, conditions that test nothing,
 * references to steps that do not exist, to outputs their kind does not produce, or to `$item` outside a fan-out,
 * and steps that depend on each other in a cycle. Paths are JSON Pointers into the definition.
 */
export function checkDefinition(definition: WorkflowDefinition, outputs: OutputSchemas): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const steps = new Map<string, { step: WorkflowStep; index: number }>();
  definition.steps.forEach((step, index) => {
    if (steps.has(step.id)) issues.push({ path: pointer('steps', index, 'id'), message: `repeats the step id "${step.id}"` });
    else steps.set(step.id, { step, index });
  });

  const outputSchema = (step: WorkflowStep): SchemaNode => {
    const record = outputs[step.kind] as SchemaNode;
    return step.forEach ? { type: 'array', items: record } : record;
  };

  /** Checks one reference; returns the schemas it reaches (for a fan-out's items), none when it is wrong. */
  const checkReference = (text: string, path: string, context: { item?: SchemaNode[] }): SchemaNode[] => {
    const reference = parseReference(text);
    if (reference.root === 'input') return [{}];
    if (reference.root === 'item') {
      if (!context.item) {
        issues.push({ path, message: '$item is only defined inside a step with forEach (its input and where)' });
        return [];
      }
      // No element schema: the forEach is wrong, and that is reported already.
      if (context.item.length === 0) return [];
      const reached = context.item.flatMap((schema) => reachable(schema, reference.path));
      if (reached.length === 0) issues.push({ path, message: `the forEach elements have no output ${reference.path.join('.')}` });
      return reached;
    }
    const target = steps.get(reference.stepId!);
    if (!target) {
      issues.push({ path, message: `refers to step "${reference.stepId}", which the definition does not have` });
      return [];
    }
    const reached = reachable(outputSchema(target.step), reference.path);
    if (reached.length === 0) issues.push({ path, message: `step "${target.step.id}" (${target.step.kind}) has no output ${reference.path.join('.')}` });
    return reached;
  };

  const checkConditions = (conditions: readonly Condition[] | undefined, at: string, context: { item?: SchemaNode[] }) => {
    (conditions ?? []).forEach((condition, index) => {
      if (condition.exists === undefined && !('equals' in condition) && condition.in === undefined) {
        issues.push({ path: `${at}${pointer(index)}`, message: 'needs equals, in or exists' });
      }
      checkReference(condition.ref, `${at}${pointer(index, 'ref')}`, context);
    });
  };

  definition.steps.forEach((step, index) => {
    const at = pointer('steps', index);
    checkConditions(step.when, `${at}/when`, {});
    let item: SchemaNode[] | undefined;
    if (step.forEach) {
      item = step.forEach.flatMap((text, position) => checkReference(text, `${at}${pointer('forEach', position)}`, {}).map(elementOf));
      checkConditions(step.where, `${at}/where`, { item });
    } else if (step.where) {
      issues.push({ path: `${at}/where`, message: 'applies only to a step with forEach' });
    }
    if (step.forEach && step.kind === 'manual_review') {
      issues.push({ path: `${at}/forEach`, message: 'a manual_review step waits for the decision on one check; it cannot fan out' });
    }
    if (step.input === undefined) issues.push({ path: `${at}/input`, message: 'is required' });
    for (const reference of referencesIn(step.input, `${at}/input`)) checkReference(reference.text, reference.path, { item });
  });
  definition.decision.rules.forEach((rule, index) => checkConditions(rule.when, pointer('decision', 'rules', index, 'when'), {}));

  if (issues.length === 0) issues.push(...cycleIssues(definition));
  return issues;
}

/** The steps a step reads from (its input, forEach, where and when). */
function dependencies(step: WorkflowStep): Set<string> {
  const texts = [
    ...referencesIn(step.input, ''),
    ...(step.forEach ?? []).map((text) => ({ text })),
    ...conditionReferences(step.where, ''),
    ...conditionReferences(step.when, ''),
  ].map(({ text }) => parseReference(text));
  return new Set(texts.filter((reference) => reference.root === 'steps').map((reference) => reference.stepId!));
}

function cycleIssues(definition: WorkflowDefinition): FieldIssue[] {
  const byId = new Map(definition.steps.map((step, index) => [step.id, { deps: dependencies(step), index }]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, trail: string[]): FieldIssue | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(id)), id];
      return { path: pointer('steps', byId.get(trail.at(-1)!)!.index), message: `steps depend on each other in a cycle: ${cycle.join(' → ')}` };
    }
    state.set(id, 'visiting');
    for (const dep of byId.get(id)!.deps) {
      const issue = visit(dep, [...trail, id]);
      if (issue) return issue;
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const step of definition.steps) {
    const issue = visit(step.id, []);
    if (issue) return [issue];
  }
  return [];
}

/** The order steps run in: each after the steps it reads from, otherwise in the order the definition lists them. */
export function executionOrder(definition: WorkflowDefinition): WorkflowStep[] {
  const remaining = definition.steps.map((step) => ({ step, deps: dependencies(step) }));
  const placed = new Set<string>();
  const order: WorkflowStep[] = [];
  while (remaining.length > 0) {
    const next = remaining.findIndex(({ deps }) => [...deps].every((dep) => placed.has(dep)));
    if (next < 0) throw new Error('the definition has a cycle; checkDefinition refuses it');
    const [{ step }] = remaining.splice(next, 1);
    placed.add(step.id);
    order.push(step);
  }
  return order;
}

/** Whether a step's input, forEach and when read only the run's input, so its input can be checked at start. */
export function readsOnlyRunInput(step: WorkflowStep): boolean {
  return dependencies(step).size === 0 && !step.forEach;
}
