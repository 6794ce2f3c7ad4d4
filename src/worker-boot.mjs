// The one entry of every worker thread. Workers do not inherit the parent's tsx loader (Node 20 ignores `--import`
// in a worker's execArgv for the worker's own entry), so each registers tsx itself, as bin/kyx.js does, and then
// loads the TypeScript module startWorkerThread named as its last argument.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
