// Worker entry: the sources are TypeScript run through tsx, which a fresh worker thread must register itself.
import { register } from 'tsx/esm/api';

register();
await import('./onnx-worker.ts');
