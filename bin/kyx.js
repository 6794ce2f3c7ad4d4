#!/usr/bin/env node
// Entry point of the `kyx` CLI: loads the TypeScript sources through tsx so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
