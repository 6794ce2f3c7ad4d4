// Runs in a worker thread: parses one list's files so a large list never blocks requests on the main thread.
// The entities go back in batches, each let go of once sent: one message holding a whole list would need its
// serialised copy in both threads at once, which made the loading peak of a large list twice its steady memory.

import { parentPort } from 'node:worker_threads';
import { parseListFileSet, type ListFileSet } from './parsers/detect.ts';
import type { ListEntity, ParsedList } from './model.ts';

export type ParseReply =
  | { type: 'entities'; entities: ListEntity[] }
  | { type: 'parsed'; list: Omit<ParsedList, 'entities'> }
  | { type: 'failed'; error: string };

const ENTITIES_PER_MESSAGE = 5_000;

const post = (reply: ParseReply) => parentPort?.postMessage(reply);

parentPort?.on('message', async (set: ListFileSet) => {
  try {
    const { entities, ...list } = await parseListFileSet(set);
    const sent: Array<ListEntity | undefined> = entities;
    for (let start = 0; start < entities.length; start += ENTITIES_PER_MESSAGE) {
      post({ type: 'entities', entities: entities.slice(start, start + ENTITIES_PER_MESSAGE) });
      sent.fill(undefined, start, start + ENTITIES_PER_MESSAGE);
    }
    post({ type: 'parsed', list });
  } catch (error) {
    post({ type: 'failed', error: (error as Error).message });
  }
});
