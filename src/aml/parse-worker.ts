// Runs in a worker thread: parses one list's files so a large list never blocks requests on the main thread.

import { parentPort } from 'node:worker_threads';
import { parseListFileSet, type ListFileSet } from './parsers/detect.ts';

parentPort?.on('message', async (set: ListFileSet) => {
  try {
    parentPort?.postMessage({ ok: true, list: await parseListFileSet(set) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: (error as Error).message });
  }
});
