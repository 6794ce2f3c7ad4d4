import { Redis, type Command, type RedisOptions } from 'ioredis';

/**
 * ioredis with a reply timeout that an event-loop stall cannot trip by itself. ioredis's own `commandTimeout` rejects
 * from the timers phase, which after a stall longer than the timeout runs before the poll phase that would read a
 * reply already waiting in the socket: on a busy machine a command Redis answered in time failed, and its request
 * answered 503. Here an expired timer looks again after that poll phase (`setImmediate`) and rejects only a command
 * that is still unanswered then.
 */
export class StallTolerantRedis extends Redis {
  readonly #replyTimeoutMs: number;
  /** A queued or retried command is sent again; its first deadline stands, as with ioredis's own timer. */
  readonly #timed = new WeakSet<Command>();

  constructor(url: string, options: Omit<RedisOptions, 'commandTimeout'> & { replyTimeoutMs: number }) {
    const { replyTimeoutMs, ...redisOptions } = options;
    super(url, redisOptions);
    this.#replyTimeoutMs = replyTimeoutMs;
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    if (!this.#timed.has(command)) this.#armReplyTimeout(command);
    return super.sendCommand(command, stream);
  }

  #armReplyTimeout(command: Command): void {
    this.#timed.add(command);
    const timer = setTimeout(() => {
      if (command.isResolved) return;
      setImmediate(() => {
        if (!command.isResolved) command.reject(new Error('Command timed out'));
      });
    }, this.#replyTimeoutMs);
    const clear = () => clearTimeout(timer);
    command.promise.then(clear, clear);
  }
}
