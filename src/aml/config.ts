// The AML section of the configuration: where lists come from and how often they are re-read.
import { ConfigError, type EnvReader } from '../env.ts';
import type { ListSource } from './registry.ts';

export interface AmlConfig {
  /** KYX_LISTS_DIR: every recognised list file in it is loaded. */
  listsDir?: string;
  /** KYX_LIST_SOURCES: publisher sources. */
  sources: ListSource[];
  /** How often every source is re-read; 0 = never. */
  refreshSeconds: number;
}

/** Refresh period when publisher URLs are configured (a conditional GET per list). */
const REMOTE_REFRESH_SECONDS = 3600;
/** Refresh period for local lists only: a re-hash of the files, re-parsed only when they changed. */
const LOCAL_REFRESH_SECONDS = 300;

const SOURCES_SHAPE = 'a JSON array of {name, url, maxBytes?, timeoutMs?}';

function parseSources(parsed: unknown): ListSource[] {
  if (!Array.isArray(parsed)) throw new ConfigError(`KYX_LIST_SOURCES must be ${SOURCES_SHAPE}`);
  const names = new Set<string>();
  return parsed.map((item: unknown, i) => {
    const source = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const where = `KYX_LIST_SOURCES[${i}]`;
    if (typeof source.name !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(source.name)) {
      throw new ConfigError(`${where}.name must be 1-64 lower-case letters, digits, _ or -`);
    }
    if (names.has(source.name)) throw new ConfigError(`${where}.name "${source.name}" is used twice`);
    names.add(source.name);
    const urls = Array.isArray(source.url) ? source.url : [source.url];
    if (urls.length === 0 || !urls.every((url) => typeof url === 'string' && /^https?:\/\//.test(url))) {
      throw new ConfigError(`${where}.url must be an http(s) URL or an array of them (the OFAC CSV family)`);
    }
    for (const field of ['maxBytes', 'timeoutMs'] as const) {
      const value = source[field];
      if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) <= 0)) throw new ConfigError(`${where}.${field} must be a positive integer`);
    }
    return {
      name: source.name,
      url: urls as string[],
      ...(source.maxBytes !== undefined ? { maxBytes: source.maxBytes as number } : {}),
      ...(source.timeoutMs !== undefined ? { timeoutMs: source.timeoutMs as number } : {}),
    };
  });
}

export function amlConfig(env: EnvReader): AmlConfig {
  const listsDir = env.string('KYX_LISTS_DIR', { description: 'a folder of list files; every recognised list in it is loaded' });
  const sources = env.json('KYX_LIST_SOURCES', {
    description: `publisher sources, ${SOURCES_SHAPE} (url may be an array: the OFAC CSV family)`,
    fallback: [] as ListSource[],
    sensitivity: 'url',
    parse: parseSources,
  });
  const refreshSeconds = env.integer('KYX_LISTS_REFRESH_SECONDS', {
    description: 'how often every list source is re-read (0 = never); 3600 with publisher URLs, 300 with local lists only',
    fallback: sources.length ? REMOTE_REFRESH_SECONDS : LOCAL_REFRESH_SECONDS,
    min: 0,
  });
  return { listsDir, sources, refreshSeconds };
}
