import fs from 'node:fs';
import type { CliCommand } from '../cli/command.ts';
import { UsageError, optionalPositiveInteger, requiredString, withStorage } from '../cli/command.ts';
import { DomainError } from '../errors.ts';
import type { PublishRequest } from './schemas.ts';

// What a command runs is imported when it runs: `kyx --help` and the other commands do not load the step kinds.
const workflows = async () => {
  const [{ findAccount }, { createWorkflowRepository }, schemas, { publishWorkflow, toRunView }, { schemaIssues }] = await Promise.all([
    import('../accounts/repository.ts'),
    import('./repository.ts'),
    import('./schemas.ts'),
    import('./service.ts'),
    import('./steps.ts'),
  ]);
  return { findAccount, createWorkflowRepository, PublishRequest: schemas.PublishRequest, publishWorkflow, toRunView, schemaIssues };
};

const describeIssues = (issues: { path: string; message: string }[]) => issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ');

export const workflowCommands: CliCommand[] = [
  {
    name: 'workflows publish',
    usage: 'kyx workflows publish FILE.json --account ID [--json]\n  FILE: {name, definition}, the body of POST /api/v1/workflows; prints the new version',
    positionals: ['FILE.json'],
    options: { account: { type: 'string' } },
    async run({ values, positionals }, io) {
      const accountId = requiredString(values, 'account');
      const { findAccount, createWorkflowRepository, PublishRequest, publishWorkflow, schemaIssues } = await workflows();
      const file = positionals[0];
      if (!file) throw new UsageError('FILE.json is required');
      let body: unknown;
      try {
        body = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
      }
      const issues = schemaIssues(PublishRequest, body);
      if (issues.length > 0) throw new UsageError(`nothing published: ${describeIssues(issues)}`);
      const { name, definition } = body as PublishRequest;
      const published = await withStorage(io, async (storage) => {
        if (!(await findAccount(storage.db, accountId))) throw new UsageError(`no account ${accountId}`);
        try {
          return await publishWorkflow(createWorkflowRepository(storage.db), accountId, name, definition);
        } catch (error) {
          if (error instanceof DomainError) throw new UsageError(`nothing published: ${describeIssues(error.issues)}`);
          throw error;
        }
      });
      io.result({ name: published.name, version: published.version }, `published ${published.name} version ${published.version}`);
    },
  },
  {
    name: 'workflows runs',
    usage: 'kyx workflows runs --account ID [--limit N] [--json]\n  the account\'s runs, newest first, with each step and its checks',
    options: { account: { type: 'string' }, limit: { type: 'string' } },
    async run({ values }, io) {
      const accountId = requiredString(values, 'account');
      const limit = optionalPositiveInteger(values, 'limit') ?? 20;
      const { findAccount, createWorkflowRepository, toRunView } = await workflows();
      const runs = await withStorage(io, async (storage) => {
        if (!(await findAccount(storage.db, accountId))) throw new UsageError(`no account ${accountId}`);
        return (await createWorkflowRepository(storage.db).listRuns(accountId, { limit })).map(toRunView);
      });
      const lines = runs.map((run) => {
        const steps = run.steps.map((step) => `${step.id}:${step.status}${[step.checkId, ...(step.checkIds ?? [])].filter(Boolean).map((id) => ` ${id}`).join('')}`);
        return `${run.runId} ${run.workflow}@${run.version} ${run.status}${run.decision ? ` ${run.decision}` : ''} ${run.startedAt}  ${steps.join(', ')}`;
      });
      io.result(runs, lines.length > 0 ? lines.join('\n') : 'no runs');
    },
  },
];
