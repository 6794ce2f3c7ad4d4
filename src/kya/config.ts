/** KYA screening configuration: thresholds on the model's injection score and the prompt length limit. */
import path from 'node:path';
import { ConfigError, type EnvReader } from '../env.ts';

export interface KyaThresholds {
  /** A model score at or over this keeps the prompt at review (no certificate). */
  review: number;
  /** A model score at or over this blocks the prompt. */
  block: number;
}

/**
 * Defaults chosen on the validation split (never on the held-out test split that `npm run eval:kya` reports) for
 * model 5.9.0: review at the lowest score where at most 1 % of benign validation prompts, and at most 1 % of the
 * natural ones (neither risky-looking nor encoded), score as high, block where at most 0.1 % of benign validation
 * prompts do; each rounded up to the thousandth (0.870, 0.986), since rounded to the nearest a threshold can admit
 * one prompt more than the rule allows. A retrained model needs them chosen again (`npm run eval:kya -- --split
 * validation` prints them, rounded up).
 */
export const DEFAULT_KYA_THRESHOLDS: Readonly<KyaThresholds> = Object.freeze({ review: 0.87, block: 0.986 });

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

/** An operator's own transformer, judging instead of the embedded model (onnx.ts; README "Your own model"). */
export interface OnnxModelConfig {
  /** KYX_KYA_ONNX_MODEL: the .onnx file. */
  modelPath: string;
  /** KYX_KYA_ONNX_TOKENIZER: the Hugging Face tokenizer.json the model was trained with. */
  tokenizerPath: string;
  /** KYX_KYA_ONNX_MAX_TOKENS: tokens per window, special tokens included (the model's maximum sequence length). */
  maxTokens: number;
  /** KYX_KYA_ONNX_INJECTION_LABEL: the index of the injection class in the model's output. */
  injectionLabel: number;
  /** KYX_KYA_ONNX_OUTPUT: whether the output holds logits (softmax or sigmoid applied here) or probabilities. */
  output: 'logits' | 'probabilities';
}

const ONNX_OUTPUTS = ['logits', 'probabilities'] as const;

export interface KyaConfig {
  thresholds: KyaThresholds;
  /** null: the embedded model judges. */
  onnx: OnnxModelConfig | null;
  /** KYX_KEEP_PROMPTS: store the prompt with its verification (off: only its SHA-256 and length). */
  keepPrompts: boolean;
}

/** The KYA section of the configuration. */
export function kyaConfig(env: EnvReader): KyaConfig {
  const thresholds = {
    review: env.probability('KYX_KYA_REVIEW_THRESHOLD', {
      description: 'model score from which a prompt is held for review (no certificate)',
      fallback: DEFAULT_KYA_THRESHOLDS.review,
    }),
    block: env.probability('KYX_KYA_BLOCK_THRESHOLD', { description: 'model score from which a prompt is blocked', fallback: DEFAULT_KYA_THRESHOLDS.block }),
  };
  if (thresholds.block < thresholds.review) throw new ConfigError('KYX_KYA_BLOCK_THRESHOLD must not be below KYX_KYA_REVIEW_THRESHOLD');
  const keepPrompts = env.flag('KYX_KEEP_PROMPTS', { description: 'store prompts with their verifications (default: only SHA-256 and length)', fallback: false });
  return { thresholds, keepPrompts, onnx: onnxConfig(env) };
}

function onnxConfig(env: EnvReader): OnnxModelConfig | null {
  const modelPath = env.string('KYX_KYA_ONNX_MODEL', { description: 'an ONNX sequence classifier that judges prompts instead of the embedded model (optional onnxruntime-node)' });
  const tokenizerPath = env.string('KYX_KYA_ONNX_TOKENIZER', { description: "the model's Hugging Face tokenizer.json (default: tokenizer.json beside the model)" });
  const maxTokens = env.integer('KYX_KYA_ONNX_MAX_TOKENS', { description: 'tokens per window given to the ONNX model, special tokens included', fallback: 512, min: 2 });
  const injectionLabel = env.integer('KYX_KYA_ONNX_INJECTION_LABEL', { description: "index of the injection class in the ONNX model's output", fallback: 1, min: 0 });
  const output = env.string('KYX_KYA_ONNX_OUTPUT', { description: "what the ONNX model's output holds: logits or probabilities", fallback: 'logits' });
  if (!ONNX_OUTPUTS.includes(output as OnnxModelConfig['output'])) throw new ConfigError(`KYX_KYA_ONNX_OUTPUT must be logits or probabilities, got "${output}"`);
  if (modelPath === undefined) {
    if (tokenizerPath !== undefined) throw new ConfigError('KYX_KYA_ONNX_TOKENIZER is set without KYX_KYA_ONNX_MODEL');
    return null;
  }
  const model = path.resolve(modelPath);
  return {
    modelPath: model,
    tokenizerPath: path.resolve(tokenizerPath ?? path.join(path.dirname(model), 'tokenizer.json')),
    maxTokens,
    injectionLabel,
    output: output as OnnxModelConfig['output'],
  };
}
