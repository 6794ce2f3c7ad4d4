import { Worker, type WorkerOptions } from 'node:worker_threads';

const BOOT_URL = new URL('./worker-boot.mjs', import.meta.url);

/** A worker thread running the TypeScript module `entry` (resolved from the caller's import.meta.url). */
export function startWorkerThread(entry: URL, options: Omit<WorkerOptions, 'argv'> = {}): Worker {
  return new Worker(BOOT_URL, { ...options, argv: [entry.href] });
}
