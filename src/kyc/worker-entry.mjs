// Worker threads do not inherit the parent's tsx loader (Node 20 ignores `--import` in a worker's execArgv for the
// worker's own entry), so the worker registers tsx itself before loading the TypeScript worker, as bin/kyx.js does.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
