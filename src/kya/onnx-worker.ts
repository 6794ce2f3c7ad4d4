// Runs in a worker thread: the operator's ONNX model and its tokenizer (onnx-judge.ts). onnxruntime-node's `run`
// answers with a promise but computes on the thread that calls it, so here it never holds the event loop.
import { parentPort, workerData } from 'node:worker_threads';
import type { OnnxModelConfig } from './config.ts';
import { loadOnnxJudge, OnnxRefusal } from './onnx-judge.ts';

export type OnnxRequest = { type: 'score'; id: number; texts: string[] };
export type OnnxReply =
  | { type: 'ready'; engine: string }
  | { type: 'refused'; variable: string; message: string }
  | { type: 'failed-to-start'; message: string }
  | { type: 'scored'; id: number; probability: number }
  | { type: 'failed'; id: number; message: string };

const post = (reply: OnnxReply) => parentPort?.postMessage(reply);

try {
  const judge = await loadOnnxJudge(workerData as OnnxModelConfig);
  parentPort?.on('message', (request: OnnxRequest) => {
    judge.score(request.texts).then(
      (probability) => post({ type: 'scored', id: request.id, probability }),
      (error: Error) => post({ type: 'failed', id: request.id, message: error.message }),
    );
  });
  post({ type: 'ready', engine: judge.engine });
} catch (error) {
  post(error instanceof OnnxRefusal ? { type: 'refused', variable: error.variable, message: error.message } : { type: 'failed-to-start', message: (error as Error).message });
}
