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

let current: Promise<void> = Promise.resolve();

async function analyse(id: number, input: Parameters<typeof analyseImages>[0]): Promise<void> {
  try {
    const signals = await analyseImages(input, { ocr, face });
    port.postMessage({ type: 'result', id, signals } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ type: 'failure', id, message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
}

port.on('message', async (request: WorkerRequest) => {
  if (request.type === 'close') {
    // Finish the check in progress before the models go away.
    await current;
    await Promise.all([ocr.close(), face.close()]);
    process.exit(0);
  }
  current = analyse(request.id, request.input);
});
