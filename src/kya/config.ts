/** KYA screening configuration: thresholds on the model's injection score and the prompt length limit. */

export interface KyaThresholds {
  /** A model score at or over this keeps the prompt at review (no certificate). */
  review: number;
  /** A model score at or over this blocks the prompt. */
  block: number;
}

/**
 * Defaults chosen on the validation split (never on the held-out test split that `npm run eval:kya` reports) for
 * model 4.0.0: review at the lowest score where at most 1 % of benign validation prompts score as high (0.914),
 * block where at most 0.1 % do (0.984). A retrained model needs them chosen again.
 */
export const DEFAULT_KYA_THRESHOLDS: Readonly<KyaThresholds> = Object.freeze({ review: 0.915, block: 0.985 });

/** Specification: "Prompts are limited to 32,000 characters; longer prompts get 413". */
export const MAX_PROMPT_CHARACTERS = 32_000;

/**
 * Characters are counted as Unicode code points. The specification says "characters", not bytes or UTF-16
 * units; JSON (RFC 8259) defines a string as a sequence of Unicode characters, i.e. code points, and the client's
 * language is unknown (Python's len and Go's utf8.RuneCountInString count code points, JavaScript's .length counts
 * UTF-16 units). Counting UTF-16 units would refuse a 20,000-emoji prompt that is 20,000 characters long;
 * grapheme clusters depend on the Unicode version of each side. So "😀" is one character, "é" written as e +
 * combining accent is two.
 */
export function countCharacters(text: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs++;
        i++;
      }
    }
  }
  return text.length - surrogatePairs;
}

export class KyaConfigError extends Error {}

function probability(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new KyaConfigError(`${name} must be a number between 0 and 1, got "${raw}"`);
  return value;
}

/** `KYX_KYA_REVIEW_THRESHOLD` and `KYX_KYA_BLOCK_THRESHOLD`, defaulting to DEFAULT_KYA_THRESHOLDS. */
export function kyaThresholdsFromEnv(env: Record<string, string | undefined> = process.env): KyaThresholds {
  const thresholds = {
    review: probability(env, 'KYX_KYA_REVIEW_THRESHOLD', DEFAULT_KYA_THRESHOLDS.review),
    block: probability(env, 'KYX_KYA_BLOCK_THRESHOLD', DEFAULT_KYA_THRESHOLDS.block),
  };
  if (thresholds.block < thresholds.review) throw new KyaConfigError('KYX_KYA_BLOCK_THRESHOLD must not be below KYX_KYA_REVIEW_THRESHOLD');
  return thresholds;
}
