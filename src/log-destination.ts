import pino from 'pino';

// Each block is one write(2) from the event loop, shared by the block's lines. sonic-boom's asynchronous mode handed
// every block to libuv's thread pool instead (two thread wake-ups per block), and its flushSync at exit wrote what it
// still held while a block was in flight there: on a busy machine the in-flight block landed after the lines that
// followed it (12 of 20 exits out of order, 3 spinning processes on 2 cores). 16 KB blocks (about 85 request lines)
// keep the write a small share of a request (docs/PERFORMANCE.md, #21 round 6).
const BLOCK_CHARACTERS = 16384;
const BLOCK_MAX_AGE_MS = 200;

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * Gathers log lines and hands them to pino's file destination (sonic-boom) one block at a time. sonic-boom can
 * buffer by itself (`minLength`), but it measures the UTF-8 length of everything it holds on every write, so each
 * line of a 4 KB buffer re-read the buffer and flattened the string it had grown to: about four times the cost of
 * making the line. Here a line costs an array push; sonic-boom sees one write per block.
 */
class LineBlocks implements pino.DestinationStream {
  #lines: string[] = [];
  #characters = 0;
  readonly #target: SonicBoom;
  /** sonic-boom can write only once its file is open and until it is closed. */
  #writable = false;

  constructor(target: SonicBoom) {
    this.#target = target;
    target.once('ready', () => (this.#writable = true));
    target.once('close', () => (this.#writable = false));
    setInterval(() => this.release(), BLOCK_MAX_AGE_MS).unref();
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#characters += line.length;
    if (this.#characters >= BLOCK_CHARACTERS) this.release();
  }

  /** Writes what is gathered, in one write. */
  release(): void {
    if (this.#characters === 0) return;
    const block = this.#lines.join('');
    this.#lines = [];
    this.#characters = 0;
    this.#target.write(block);
  }

  /** Writes everything gathered and held, before this call returns (the process is exiting). */
  flushSync(): void {
    this.release();
    if (this.#writable) this.#target.flushSync();
  }
}

const open: LineBlocks[] = [];
process.on('exit', () => {
  for (const blocks of open) blocks.flushSync();
});

/**
 * Where the service's log lines go (stdout by default): gathered and written in blocks of at least 16 KB or every
 * 200 ms, whichever comes first, instead of one write per line (the write of every request's line cost more than the
 * rest of its logging); blocks are written synchronously, in order, so none can overtake another at exit. What is
 * gathered is written when the process exits through Node: a normal exit, an uncaught error, or SIGTERM/SIGINT,
 * which `kyx serve` handles. A signal nothing handles (SIGKILL, SIGHUP, SIGQUIT) or running out of memory loses the
 * last 200 ms of lines.
 */
export function logDestination(dest: number | string = 1): pino.DestinationStream {
  const blocks = new LineBlocks(pino.destination({ dest, sync: true }));
  open.push(blocks);
  return blocks;
}
