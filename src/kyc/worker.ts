// Pool worker: owns one OCR engine and one face engine, warmed at start, and analyses one check at a time.
import { parentPort } from 'node:worker_threads';
import { analyseImages } from './analyse.ts';
import { createFaceEngine } from './face.ts';
import { createOcrEngine } from './ocr.ts';
import type { WorkerReply, WorkerRequest } from './pool.ts';

if (!parentPort) throw new Error('src/kyc/worker.ts runs only as a worker thread');
const port = parentPort;

const [ocr, face] = await Promise.all([createOcrEngine(), createFaceEngine()]);
port.postMessage({ type: 'ready' } satisfies WorkerReply);

port.on('message', async (request: WorkerRequest) => {
  if (request.type === 'close') {
    await Promise.all([ocr.close(), face.close()]);
    process.exit(0);
  }
  try {
    const signals = await analyseImages(request.input, { ocr, face });
    port.postMessage({ type: 'result', id: request.id, signals } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ type: 'failure', id: request.id, message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
});
