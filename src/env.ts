// Reading the environment: every variable kyx reads goes through one EnvReader, which parses it, refuses a bad
// value with a ConfigError naming the variable, and remembers what it read so `kyx config` can print the
// effective configuration. Sections (core, aml, kyc, …) are plain functions over a reader.

type Env = Record<string, string | undefined>;

/** A setting that cannot be used: the service does not start (the CLI exits 2) and the message names it. */
export class ConfigError extends Error {}

/** `secret`: never printed; `url`: every URL in the value printed without its user, password and query values. */
export type Sensitivity = 'plain' | 'secret' | 'url';

export interface EffectiveVariable {
  section: string;
  name: string;
  /** As printed: redacted when sensitive; null when unset and without default. */
  value: string | number | boolean | null;
  source: 'environment' | 'default' | 'unset';
  description: string;
}

interface Declaration<T> {
  description: string;
  sensitivity?: Sensitivity;
  /** The value when the variable is unset or empty. */
  fallback?: T;
}

/** What a string must look like, and how the refusal describes it. */
interface StringShape {
  pattern?: { test: RegExp; expected: string };
}

export interface EnvReader {
  string(name: string, declaration: Declaration<string> & StringShape & { fallback: string }): string;
  string(name: string, declaration: Declaration<string> & StringShape): string | undefined;
  integer(name: string, declaration: Declaration<number> & { fallback: number; min?: number; max?: number }): number;
  /** A finite number above zero. */
  positive(name: string, declaration: Declaration<number> & { fallback: number }): number;
  positive(name: string, declaration: Declaration<number>): number | undefined;
  /** A number in [0, 1]. */
  probability(name: string, declaration: Declaration<number> & { fallback: number }): number;
  /** 1/true/yes/on or 0/false/no/off, any case. */
  flag(name: string, declaration: Declaration<boolean> & { fallback: boolean }): boolean;
  /** JSON text, checked by `parse` (which throws ConfigError with the details). */
  json<T>(name: string, declaration: Declaration<T> & { fallback: T; parse(value: unknown): T }): T;
  /** Everything read so far, in reading order. */
  effective(): EffectiveVariable[];
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** A URL without its credentials: user, password and every query value (API keys travel there too). */
function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.username) url.username = 'redacted';
    if (url.password) url.password = 'redacted';
    for (const name of new Set(url.searchParams.keys())) url.searchParams.set(name, 'redacted');
    return url.toString();
  } catch {
    return '<redacted>';
  }
}

function redact(raw: string, sensitivity: Sensitivity): string {
  if (sensitivity === 'secret') return '<redacted>';
  // Every URL in the text: one URL, or a JSON list of sources.
  return raw.replace(/https?:\/\/[^\s"',\]]+|^[a-z][a-z0-9+.-]*:\/\/\S+$/gi, redactUrl);
}

function printable(value: unknown, raw: string | null): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return raw ?? JSON.stringify(value);
  return value as string | number | boolean;
}

/** A reader over `env` for one section at a time (`section(name)` switches the label the next reads get). */
export function createEnvReader(env: Env): EnvReader & { section(name: string): void } {
  const read: EffectiveVariable[] = [];
  let section = 'core';

  function take<T>(name: string, declaration: Declaration<T>, parse: (raw: string) => T): T | undefined {
    const raw = env[name];
    const set = raw !== undefined && raw.trim() !== '';
    const value = set ? parse(raw.trim()) : declaration.fallback;
    const sensitivity = declaration.sensitivity ?? 'plain';
    read.push({
      section,
      name,
      value: set ? (sensitivity === 'plain' ? printable(value, raw) : redact(raw, sensitivity)) : printable(declaration.fallback, null),
      source: set ? 'environment' : declaration.fallback === undefined ? 'unset' : 'default',
      description: declaration.description,
    });
    return value;
  }

  const refuse = (name: string, expected: string, raw: string): never => {
    throw new ConfigError(`${name} must be ${expected}, got "${raw}"`);
  };

  return {
    section(name) {
      section = name;
    },
    string: ((name: string, declaration: Declaration<string> & StringShape) =>
      take(name, declaration, (raw) => (!declaration.pattern || declaration.pattern.test.test(raw) ? raw : refuse(name, declaration.pattern.expected, raw)))) as EnvReader['string'],
    integer(name, declaration) {
      const min = declaration.min ?? 1;
      const max = declaration.max ?? Number.MAX_SAFE_INTEGER;
      const range = declaration.max === undefined ? `an integer >= ${min}` : `an integer ${min}-${max}`;
      return take(name, declaration, (raw) => {
        const value = Number(raw);
        return Number.isInteger(value) && value >= min && value <= max ? value : refuse(name, range, raw);
      })!;
    },
    positive: ((name: string, declaration: Declaration<number>) =>
      take(name, declaration, (raw) => {
        const value = Number(raw);
        return Number.isFinite(value) && value > 0 ? value : refuse(name, 'a number greater than 0', raw);
      })) as EnvReader['positive'],
    probability(name, declaration) {
      return take(name, declaration, (raw) => {
        const value = Number(raw);
        return Number.isFinite(value) && value >= 0 && value <= 1 ? value : refuse(name, 'a number between 0 and 1', raw);
      })!;
    },
    flag(name, declaration) {
      return take(name, declaration, (raw) => {
        const lower = raw.toLowerCase();
        if (TRUE.has(lower)) return true;
        if (FALSE.has(lower)) return false;
        return refuse(name, 'one of 1/true/yes/on or 0/false/no/off', raw);
      })!;
    },
    json(name, declaration) {
      return take(name, declaration, (raw) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new ConfigError(`${name} must be valid JSON (${declaration.description})`);
        }
        return declaration.parse(parsed);
      })!;
    },
    effective: () => [...read],
  };
}
