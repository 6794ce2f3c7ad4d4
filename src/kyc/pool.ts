// A fixed pool of analysis workers (node:worker_threads). Each worker keeps its models warm; jobs queue here and
// go to the first idle worker, so OCR and the face model never run on the event loop.
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../workers.ts';
import type { AnalyseInput, KycSignals } from './types.ts';

export type WorkerRequest = { type: 'analyse'; id: number; input: AnalyseInput } | { type: 'close' };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; signals: KycSignals }
  | { type: 'failure'; id: number; message: string };

interface Job {
  id: number;
  input: AnalyseInput;
  resolve: (signals: KycSignals) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** false while a replacement for a crashed worker is starting, or for good if it could not start. */
  alive: boolean;
}

export interface AnalysisPool {
  run(input: AnalyseInput): Promise<KycSignals>;
  close(): Promise<void>;
}

const WORKER_URL = new URL('./worker.ts', import.meta.url);
const CLOSE_GRACE_MS = 60_000;

function spawn(): Promise<Worker> {
  const worker = startWorkerThread(WORKER_URL);
  return new Promise((resolve, reject) => {
    const onReady = (message: WorkerReply) => {
      if (message.type !== 'ready') return;
      worker.off('message', onReady).off('error', reject);
      resolve(worker);
    };
    worker.on('message', onReady).once('error', reject);
    worker.once('exit', (code) => reject(new Error(`KYC analysis worker exited during start-up (code ${code})`)));
  });
}

export async function createAnalysisPool(size: number): Promise<AnalysisPool> {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closing = false;

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.alive || slot.job || queue.length === 0) continue;
      const job = queue.shift()!;
      slot.job = job;
      slot.worker.postMessage({ type: 'analyse', id: job.id, input: job.input } satisfies WorkerRequest);
    }
  };

  const attach = (slot: Slot) => {
    slot.worker.on('message', (message: WorkerReply) => {
      const job = slot.job;
      if (!job || message.type === 'ready' || message.id !== job.id) return;
      slot.job = null;
      if (message.type === 'result') job.resolve(message.signals);
      else job.reject(new Error(`KYC analysis failed: ${message.message}`));
      dispatch();
    });
    slot.worker.on('error', (error) => slot.job?.reject(error));
    slot.worker.on('exit', (code) => {
      slot.alive = false;
      slot.job?.reject(new Error(`KYC analysis worker exited (code ${code})`));
      slot.job = null;
      if (closing) return;
      // Replace the lost worker so the pool keeps its size.
      const replacing = spawn();
      replacing.then(
        (worker) => {
          if (closing) return void worker.terminate();
          slot.worker = worker;
          slot.alive = true;
          attach(slot);
          dispatch();
        },
        (error: Error) => {
          if (slots.some((s) => s.alive) || closing) return;
          for (const job of queue.splice(0)) job.reject(error);
        },
      );
    });
  };

  const workers = await Promise.all(Array.from({ length: size }, spawn));
  for (const worker of workers) {
    const slot: Slot = { worker, job: null, alive: true };
    slots.push(slot);
    attach(slot);
  }

  return {
    run(input) {
      if (closing) return Promise.reject(new Error('KYC engine is closed'));
      return new Promise<KycSignals>((resolve, reject) => {
        queue.push({ id: nextId++, input, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closing = true;
      for (const job of queue.splice(0)) job.reject(new Error('KYC engine is closed'));
      await Promise.all(
        slots.map(async (slot) => {
          if (!slot.alive) {
            await slot.worker.terminate();
            return;
          }
          const exited = new Promise<void>((resolve) => slot.worker.once('exit', () => resolve()));
          slot.worker.postMessage({ type: 'close' } satisfies WorkerRequest);
          // The check in progress finishes (several OCR passes: tens of seconds on a loaded 2-core machine, which a
          // 5 s grace cut short); a worker stuck in native code beyond that is stopped.
          const timer = setTimeout(() => void slot.worker.terminate(), CLOSE_GRACE_MS);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}
