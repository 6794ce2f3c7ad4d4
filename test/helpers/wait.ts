// Waiting for work a worker does in the background, without asserting how long it takes: polls until `done`
// holds (about a minute at most, so a broken feature fails instead of hanging the suite).

export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, everyMs = 25): Promise<T> {
  for (let waited = 0; waited < 60_000; waited += everyMs) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
