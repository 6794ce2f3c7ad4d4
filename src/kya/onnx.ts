/**
 * The operator's ONNX model (KYX_KYA_ONNX_MODEL) behind the InjectionModel interface: it judges in a worker thread
 * (onnx-worker.ts), started and tried when the service starts, so that a model that cannot serve stops the start
 * with a ConfigError naming the variable, and inference never holds the event loop.
 */
import type { Worker } from 'node:worker_threads';
import { ConfigError } from '../env.ts';
import { DomainError } from '../errors.ts';
import { startWorkerThread } from '../workers.ts';
import type { OnnxModelConfig } from './config.ts';
import type { InjectionModel } from './model.ts';
import type { OnnxReply, OnnxRequest } from './onnx-worker.ts';

export interface OnnxModel extends InjectionModel {
  score(texts: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

const WORKER_URL = new URL('./onnx-worker.ts', import.meta.url);

const unavailable = (cause: unknown) =>
  new DomainError('engine_unavailable', 'The KYA screening model is not available; retry shortly', { cause });

/** A worker holding the model, once it has loaded and tried it, with its engine name. */
function spawn(config: OnnxModelConfig): Promise<{ worker: Worker; engine: string }> {
  const worker = startWorkerThread(WORKER_URL, { workerData: config });
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      void worker.terminate();
      reject(error);
    };
    const onReply = (reply: OnnxReply) => {
      worker.off('message', onReply).off('error', fail).off('exit', onExit);
      if (reply.type === 'ready') resolve({ worker, engine: reply.engine });
      else if (reply.type === 'refused') fail(new ConfigError(`${reply.variable} ${reply.message}`));
      else fail(new Error(`KYA ONNX model could not start: ${'message' in reply ? reply.message : reply.type}`));
    };
    const onExit = (code: number) => reject(new Error(`KYA ONNX worker exited during start-up (code ${code})`));
    worker.on('message', onReply).once('error', fail).once('exit', onExit);
  });
}

/** Starts the model; throws ConfigError (the service does not start) when the settings cannot be used. */
export async function startOnnxModel(config: OnnxModelConfig): Promise<OnnxModel> {
  const started = await spawn(config);
  let current: Promise<Worker> | null = Promise.resolve(started.worker);
  const pending = new Map<number, { resolve: (probability: number) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let closing = false;

  const attach = (worker: Worker) => {
    worker.on('message', (reply: OnnxReply) => {
      if (reply.type !== 'scored' && reply.type !== 'failed') return;
      const job = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.type === 'scored') job?.resolve(reply.probability);
      else job?.reject(unavailable(new Error(reply.message)));
    });
    worker.once('exit', (code) => {
      // A crashed worker fails what it held; the next screening starts another.
      current = null;
      for (const job of pending.values()) job.reject(unavailable(new Error(`KYA ONNX worker exited (code ${code})`)));
      pending.clear();
    });
  };
  attach(started.worker);

  const worker = (): Promise<Worker> => {
    if (!current) {
      const starting = spawn(config).then(({ worker: fresh }) => {
        attach(fresh);
        return fresh;
      });
      current = starting;
      starting.catch(() => {
        if (current === starting) current = null;
      });
    }
    return current;
  };

  return {
    engine: started.engine,
    async score(texts) {
      if (closing) throw unavailable(new Error('KYA ONNX model closed'));
      const target = await worker().catch((error: unknown) => {
        throw unavailable(error);
      });
      const id = nextId++;
      return new Promise<number>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        target.postMessage({ type: 'score', id, texts: [...texts] } satisfies OnnxRequest);
      });
    },
    async close() {
      closing = true;
      const running = await current?.catch(() => null);
      await running?.terminate();
    },
  };
}
