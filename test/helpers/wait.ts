// Waiting for work a worker does in the background, without asserting how long it takes.

/**
 * How long a test waits for background work or a child process before calling it hung. Generous on purpose: on a
 * busy two-core machine (the suite shuffled beside other work, load 20) one `kyx` CLI start took 18 s, and tests
 * that ran several of them overran a one-minute limit. Only a broken feature should ever reach it.
 */
export const PATIENCE_MS = 300_000;

/** Polls until `done` holds, for at most PATIENCE_MS, so a broken feature fails instead of hanging the suite. */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, everyMs = 25): Promise<T> {
  for (let waited = 0; waited < PATIENCE_MS; waited += everyMs) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
