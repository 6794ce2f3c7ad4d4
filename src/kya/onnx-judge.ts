/**
 * An operator's own transformer as the KYA judge: a Hugging Face tokenizer.json turns each view of the prompt into
 * token ids, the ids are cut into overlapping windows of the model's length (each wrapped in the tokenizer's own
 * special tokens, [CLS] … [SEP] or <s> … </s>), and the prompt's score is the highest injection probability the
 * model gives any window, as the embedded cascade takes its highest window. Runs in the worker of onnx.ts.
 *
 * The contract (README, "Your own model"): inputs `input_ids` and optionally `attention_mask` and `token_type_ids`,
 * int64 [batch, sequence]; the output named `logits` (else the first), float32 [batch, classes] holding logits
 * (softmax, or a sigmoid for one class) or probabilities, the injection class at KYX_KYA_ONNX_INJECTION_LABEL.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import type { OnnxModelConfig } from './config.ts';

/** The part of onnxruntime-node used here, so that the project builds where the optional package is absent. */
interface OrtTensor {
  readonly data: unknown;
  readonly dims: readonly number[];
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
}
interface OnnxRuntime {
  InferenceSession: { create(path: string): Promise<OrtSession> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => OrtTensor;
}

/** What is used of @huggingface/tokenizers' Tokenizer (whose declarations TypeScript's NodeNext resolution cannot follow). */
interface TextTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
  token_to_id(token: string): number | undefined;
}

/** A setting that cannot be used, named by its variable (the main thread turns it into a ConfigError). */
export class OnnxRefusal extends Error {
  constructor(readonly variable: string, message: string) {
    super(message);
    this.name = 'OnnxRefusal';
  }
}

export interface OnnxJudge {
  /** `onnx:` and the first 16 hex digits of the model file's SHA-256, so a report says which model judged. */
  engine: string;
  score(texts: readonly string[]): Promise<number>;
}

/** Windows run through the model at once: enough to use its threads, few enough to bound its memory. */
const WINDOWS_PER_RUN = 8;
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);
const PAD_TOKENS = ['[PAD]', '<pad>'];

/**
 * Windows of `width` ids overlapping by half, so that any run of up to half a window lies whole inside one;
 * a text no longer than a window is one window.
 */
export function windowsOf(ids: readonly number[], width: number): number[][] {
  if (ids.length <= width) return [[...ids]];
  const stride = Math.max(1, Math.floor(width / 2));
  const windows: number[][] = [];
  for (let start = 0; ; start += stride) {
    windows.push(ids.slice(start, start + width));
    if (start + width >= ids.length) return windows;
  }
}

/** The special tokens the tokenizer puts before and after one sequence, found by encoding a text both ways. */
function specialTokens(tokenizer: TextTokenizer): { prefix: number[]; suffix: number[] } {
  const probe = 'hello world';
  const plain = tokenizer.encode(probe, { add_special_tokens: false }).ids;
  const full = tokenizer.encode(probe, { add_special_tokens: true }).ids;
  for (let at = 0; at + plain.length <= full.length; at++) {
    if (plain.every((id, k) => full[at + k] === id)) return { prefix: full.slice(0, at), suffix: full.slice(at + plain.length) };
  }
  throw new OnnxRefusal('KYX_KYA_ONNX_TOKENIZER', 'the tokenizer changes a text when it adds its special tokens, so a window cannot be wrapped in them');
}

function padId(tokenizer: TextTokenizer, json: { padding?: { pad_id?: number } | null }): number {
  if (typeof json.padding?.pad_id === 'number') return json.padding.pad_id;
  for (const token of PAD_TOKENS) {
    const id = tokenizer.token_to_id(token);
    if (id !== undefined) return id;
  }
  return 0;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The injection probability in one row of the output. */
export function injectionProbability(row: Float32Array, label: number, output: OnnxModelConfig['output']): number {
  if (row.length === 1) return output === 'logits' ? sigmoid(row[0]) : row[0];
  if (output === 'probabilities') return row[label];
  let largest = -Infinity;
  for (const z of row) largest = Math.max(largest, z);
  let sum = 0;
  for (const z of row) sum += Math.exp(z - largest);
  return Math.exp(row[label] - largest) / sum;
}

function readSetting<T>(variable: string, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new OnnxRefusal(variable, `${what}: ${(error as Error).message}`);
  }
}

/** Streamed: a transformer's file may be larger than is worth holding in memory beside the session's own copy. */
async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function importRuntime(): Promise<OnnxRuntime> {
  // A variable specifier: the package is optional, so neither TypeScript nor a bundler may insist on it.
  const specifier = 'onnxruntime-node';
  try {
    return (await import(specifier)) as OnnxRuntime;
  } catch (error) {
    throw new OnnxRefusal(
      'KYX_KYA_ONNX_MODEL',
      `needs the optional package onnxruntime-node, which could not be loaded (${(error as Error).message}); install it with npm install (optional dependencies included)`,
    );
  }
}

/** Reads, checks and tries the model and its tokenizer; an OnnxRefusal names the setting at fault. */
export async function loadOnnxJudge(config: OnnxModelConfig): Promise<OnnxJudge> {
  const modelHash = await sha256OfFile(config.modelPath).catch((error: Error) => {
    throw new OnnxRefusal('KYX_KYA_ONNX_MODEL', `cannot read ${config.modelPath}: ${error.message}`);
  });
  const tokenizerJson = readSetting('KYX_KYA_ONNX_TOKENIZER', `cannot read ${config.tokenizerPath} as JSON`, () => JSON.parse(readFileSync(config.tokenizerPath, 'utf8')));
  const tokenizer: TextTokenizer = readSetting('KYX_KYA_ONNX_TOKENIZER', `${config.tokenizerPath} is not a tokenizer.json this service reads`, () => new Tokenizer(tokenizerJson, {}));
  const { prefix, suffix } = readSetting('KYX_KYA_ONNX_TOKENIZER', `${config.tokenizerPath} cannot encode`, () => specialTokens(tokenizer));
  const width = config.maxTokens - prefix.length - suffix.length;
  if (width < 1) throw new OnnxRefusal('KYX_KYA_ONNX_MAX_TOKENS', `leaves no room for text beside the tokenizer's ${prefix.length + suffix.length} special tokens`);
  const pad = padId(tokenizer, tokenizerJson);

  const ort = await importRuntime();
  const session = await ort.InferenceSession.create(config.modelPath).catch((error: Error) => {
    throw new OnnxRefusal('KYX_KYA_ONNX_MODEL', `${config.modelPath} is not an ONNX model onnxruntime can run: ${error.message}`);
  });
  const unknown = session.inputNames.filter((name) => !KNOWN_INPUTS.has(name));
  if (!session.inputNames.includes('input_ids') || unknown.length > 0) {
    throw new OnnxRefusal('KYX_KYA_ONNX_MODEL', `the model's inputs must be input_ids and optionally attention_mask and token_type_ids, not ${session.inputNames.join(', ')}`);
  }
  const outputName = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0];
  const masked = session.inputNames.includes('attention_mask');
  const typed = session.inputNames.includes('token_type_ids');

  /** Injection probabilities of windows of equal or padded length, one run. */
  const run = async (windows: number[][]): Promise<number[]> => {
    const length = Math.max(...windows.map((w) => prefix.length + w.length + suffix.length));
    const ids = new BigInt64Array(windows.length * length).fill(BigInt(pad));
    const mask = new BigInt64Array(windows.length * length);
    windows.forEach((window, row) => {
      const sequence = [...prefix, ...window, ...suffix];
      sequence.forEach((id, k) => {
        ids[row * length + k] = BigInt(id);
        mask[row * length + k] = 1n;
      });
    });
    const dims = [windows.length, length];
    const feeds: Record<string, OrtTensor> = { input_ids: new ort.Tensor('int64', ids, dims) };
    if (masked) feeds.attention_mask = new ort.Tensor('int64', mask, dims);
    if (typed) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(ids.length), dims);
    const output = (await session.run(feeds))[outputName];
    if (!(output.data instanceof Float32Array) || output.data.length % windows.length !== 0) {
      throw new Error(`the output ${outputName} must be float32 [batch, classes], got ${output.dims.join('×')}`);
    }
    const classes = output.data.length / windows.length;
    if (classes > 1 && config.injectionLabel >= classes) {
      throw new OnnxRefusal('KYX_KYA_ONNX_INJECTION_LABEL', `is ${config.injectionLabel} but the model's output has ${classes} classes`);
    }
    const data = output.data;
    return windows.map((_, row) => injectionProbability(data.subarray(row * classes, (row + 1) * classes), config.injectionLabel, config.output));
  };

  const judge: OnnxJudge = {
    engine: `onnx:${modelHash.slice(0, 16)}`,
    async score(texts) {
      const windows = texts.flatMap((text) => windowsOf(tokenizer.encode(text, { add_special_tokens: false }).ids, width));
      // Without an attention mask padding would be read as text: every window then runs alone, unpadded.
      const perRun = masked ? WINDOWS_PER_RUN : 1;
      let highest = 0;
      for (let start = 0; start < windows.length; start += perRun) {
        for (const probability of await run(windows.slice(start, start + perRun))) {
          if (!(probability >= 0 && probability <= 1)) throw new Error(`the model gave ${probability}, not a probability`);
          highest = Math.max(highest, probability);
        }
      }
      return highest;
    },
  };
  // The whole contract tried once now, so that a model that cannot serve fails at start, not on a live prompt.
  await judge.score(['hello world']).catch((error: Error) => {
    throw error instanceof OnnxRefusal ? error : new OnnxRefusal('KYX_KYA_ONNX_MODEL', `the model failed on a first window: ${error.message}`);
  });
  return judge;
}
