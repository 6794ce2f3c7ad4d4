// A tiny ONNX sequence classifier and its Hugging Face tokenizer.json, written here so that the ONNX engine is
// tested on a real model without shipping one. The protobuf is encoded by hand: only the fields of onnx.proto
// that this graph needs (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto).
//
// The graph: logits = (Σ over tokens of embedding[input_ids] · attention_mask) × W, int64 [batch, sequence] in,
// float32 [batch, 2] out. Each token's embedding row is (benign evidence, injection evidence) and W is the
// identity, so the injection probability is σ(Σ injection − Σ benign) over the window.

import fs from 'node:fs';
import path from 'node:path';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;
const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_INT = 2;

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = BigInt(value);
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0n);
  return bytes;
}

type Field = number[];
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, value: number): Field => [...key(field, 0), ...varint(value)];
const bytes = (field: number, content: Uint8Array | number[]): Field => [...key(field, 2), ...varint(content.length), ...content];
const text = (field: number, value: string): Field => bytes(field, [...Buffer.from(value, 'utf8')]);
const message = (field: number, ...fields: Field[]): Field => bytes(field, fields.flat());

function tensor(field: number, name: string, dims: number[], values: Float32Array | BigInt64Array): Field {
  const raw = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  return message(field, ...dims.map((d) => int(1, d)), int(2, values instanceof Float32Array ? FLOAT : INT64), text(8, name), bytes(9, raw));
}

/** A graph input or output: its element type and shape, a dimension being a size or a symbolic name. */
function valueInfo(field: number, name: string, elemType: number, shape: Array<number | string>): Field {
  const dims = shape.map((d) => message(1, typeof d === 'number' ? int(1, d) : text(2, d)));
  return message(field, text(1, name), message(2, message(1, int(1, elemType), message(2, ...dims))));
}

function node(opType: string, inputs: string[], outputs: string[], attributes: Record<string, number> = {}): Field {
  const attrs = Object.entries(attributes).map(([name, value]) => message(5, text(1, name), int(3, value), int(20, ATTRIBUTE_INT)));
  return message(1, ...inputs.map((i) => text(1, i)), ...outputs.map((o) => text(2, o)), text(3, `${opType}_${outputs[0]}`), text(4, opType), ...attrs);
}

export interface TinyClassifier {
  /** Each token's (benign, injection) evidence, by token id (the tokenizer's ids). */
  embeddings: Array<[number, number]>;
  /** Whether the model takes and applies an attention mask (without one, padding counts as text). */
  attentionMask?: boolean;
  /** The name of the token-id input (another than input_ids breaks the contract). */
  idsInput?: string;
}

export function tinyClassifierBytes({ embeddings, attentionMask = true, idsInput = 'input_ids' }: TinyClassifier): Uint8Array {
  const nodes = attentionMask
    ? [
        node('Gather', ['embedding', idsInput], ['embedded']),
        node('Cast', ['attention_mask'], ['mask'], { to: FLOAT }),
        node('Unsqueeze', ['mask', 'last_axis'], ['mask3']),
        node('Mul', ['embedded', 'mask3'], ['masked']),
        node('ReduceSum', ['masked', 'sequence_axis'], ['pooled'], { keepdims: 0 }),
        node('MatMul', ['pooled', 'head'], ['logits']),
      ]
    : [node('Gather', ['embedding', idsInput], ['embedded']), node('ReduceSum', ['embedded', 'sequence_axis'], ['pooled'], { keepdims: 0 }), node('MatMul', ['pooled', 'head'], ['logits'])];
  const graph = message(
    7,
    ...nodes,
    text(2, 'tiny-injection-classifier'),
    tensor(5, 'embedding', [embeddings.length, 2], Float32Array.from(embeddings.flat())),
    tensor(5, 'head', [2, 2], Float32Array.from([1, 0, 0, 1])),
    tensor(5, 'sequence_axis', [1], BigInt64Array.from([1n])),
    ...(attentionMask ? [tensor(5, 'last_axis', [1], BigInt64Array.from([2n]))] : []),
    valueInfo(11, idsInput, INT64, ['batch', 'sequence']),
    ...(attentionMask ? [valueInfo(11, 'attention_mask', INT64, ['batch', 'sequence'])] : []),
    valueInfo(12, 'logits', FLOAT, ['batch', 2]),
  );
  return Uint8Array.from([...int(1, 8), ...text(2, 'kyx-test'), ...graph, ...message(8, text(1, ''), int(2, 13))]);
}

/** A BERT-style WordPiece tokenizer.json over the special tokens and `words` (ids in that order). */
export function tinyTokenizer(words: string[]): object {
  const vocab = Object.fromEntries([...SPECIAL, ...words].map((token, id) => [token, id]));
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]'), { Sequence: { id: 'B', type_id: 1 } }, special('[SEP]')],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((token) => [token, { id: token, ids: [vocab[token]], tokens: [token] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

/**
 * Writes model.onnx and tokenizer.json into `dir`: every token is weak benign evidence, except the `evidence` given
 * per word (and [PAD], strong injection evidence, so that padding read as text would show).
 */
export function writeTinyModel(
  dir: string,
  words: string[],
  evidence: Record<string, [number, number]>,
  { unembedded = [], ...options }: Omit<TinyClassifier, 'embeddings'> & { unembedded?: string[] } = {},
): { model: string; tokenizer: string } {
  const embeddings = [...SPECIAL, ...words].map((token): [number, number] => (token === '[PAD]' ? [0, 50] : (evidence[token] ?? [0.5, 0])));
  fs.mkdirSync(dir, { recursive: true });
  const model = path.join(dir, 'model.onnx');
  const tokenizer = path.join(dir, 'tokenizer.json');
  fs.writeFileSync(model, tinyClassifierBytes({ embeddings, ...options }));
  // `unembedded` words are known to the tokenizer but have no embedding row: the model fails on them.
  fs.writeFileSync(tokenizer, JSON.stringify(tinyTokenizer([...words, ...unembedded])));
  return { model, tokenizer };
}
