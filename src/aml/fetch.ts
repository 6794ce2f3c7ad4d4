// Conditional download of a publisher's list file with undici: ETag / Last-Modified revalidation, a size
// limit enforced while streaming (not only from Content-Length), a timeout, redirects followed.

import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, interceptors, request, type Dispatcher } from 'undici';

export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
export const DEFAULT_FETCH_TIMEOUT_MS = 120_000;

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchOutcome =
  | { status: 'not_modified' }
  | { status: 'downloaded'; bytes: number; validators: Validators };

export interface FetchOptions {
  maxBytes?: number;
  timeoutMs?: number;
  previous?: Validators;
  dispatcher?: Dispatcher;
}

let defaultDispatcher: Dispatcher | undefined;

function dispatcher(): Dispatcher {
  defaultDispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));
  return defaultDispatcher;
}

export class ListFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListFetchError';
  }
}

/** Downloads `url` into `destination` unless the publisher answers 304 to the previous validators. */
export async function fetchListFile(url: string, destination: string, options: FetchOptions = {}): Promise<FetchOutcome> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const headers: Record<string, string> = { 'user-agent': 'kyx-lists/1', accept: '*/*' };
  if (options.previous?.etag) headers['if-none-match'] = options.previous.etag;
  if (options.previous?.lastModified) headers['if-modified-since'] = options.previous.lastModified;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      headers,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: options.dispatcher ?? dispatcher(),
    });
  } catch (error) {
    throw new ListFetchError(signal.aborted ? `timed out after ${timeoutMs} ms` : `request failed: ${(error as Error).message}`);
  }
  const { statusCode, body } = response;
  if (statusCode === 304) {
    await body.dump();
    return { status: 'not_modified' };
  }
  if (statusCode !== 200) {
    await body.dump();
    throw new ListFetchError(`publisher answered HTTP ${statusCode}`);
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw new ListFetchError(`file of ${declared} bytes exceeds the ${maxBytes}-byte limit`);
  }
  let bytes = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new ListFetchError(`file exceeds the ${maxBytes}-byte limit`));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(body, limiter, createWriteStream(destination));
  } catch (error) {
    await rm(destination, { force: true });
    if (error instanceof ListFetchError) throw error;
    throw new ListFetchError(signal.aborted ? `timed out after ${timeoutMs} ms` : `download failed: ${(error as Error).message}`);
  }
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return { status: 'downloaded', bytes, validators: { etag: header('etag'), lastModified: header('last-modified') } };
}
