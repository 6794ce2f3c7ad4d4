/**
 * Turns samples into what the models are trained on: exactly the windows, views and features the screener reads.
 */
import {
  createJudgeFeatures,
  createRankerFeatures,
  judgeFeatures,
  rankerFeatures,
  STRUCTURE_MEASURES,
  windowStarts,
  type Vocabulary,
} from '../features.ts';
import { normalisePrompt, type PromptView } from '../normalise.ts';
import type { Sample } from './dataset.ts';

export interface WindowParams {
  windowChars: number;
  strideChars: number;
}

/** A window of a view of a sample, with its label. */
export interface LabelledWindow {
  /** The window's text: what the judge reads. */
  text: string;
  /** The whole view, and where the window starts in it: what the ranker reads (see `rankerExamples`). */
  view: string;
  start: number;
  label: 0 | 1;
}

/** A sparse feature vector: each bucket once, valued count / √(features in the window). */
export interface SparseVector {
  buckets: Int32Array;
  values: Float32Array;
}

export interface RankerExample extends SparseVector {
  label: 0 | 1;
}

export interface JudgeExample extends SparseVector {
  label: 0 | 1;
  structure: Float32Array;
}

/**
 * Opaque encodings: the undecoded text of an encoded injection is noise, its decoded view carries the label. The
 * undecoded text of an encoded benign text is benign, and is kept: a blob of base64 is not an injection.
 */
const OPAQUE_ENCODINGS = new Set(['base64', 'hex', 'url', 'rot13']);
/** How much of a planted instruction a window must hold to be labelled an injection. */
const PLANTED_PREFIX = 40;

function trainedViews(sample: Sample): PromptView[] {
  const views = normalisePrompt(sample.text).views;
  return sample.label === 1 && sample.encoding && OPAQUE_ENCODINGS.has(sample.encoding) ? views.filter((v) => v.kind !== 'canonical') : views;
}

/**
 * Every window of every normalised view of every sample. In a document with a planted instruction, only the
 * windows holding the instruction are injections; the rest of the document is benign text, and a window with only
 * a fragment of the instruction, neither clearly one nor the other, is left out.
 */
export function labelledWindows(samples: readonly Sample[], params: WindowParams): LabelledWindow[] {
  const windows: LabelledWindow[] = [];
  for (const sample of samples) {
    const planted = sample.injected ? normalisePrompt(sample.injected).views[0].text : null;
    for (const view of trainedViews(sample)) {
      const plantedAt = planted ? view.text.indexOf(planted.slice(0, PLANTED_PREFIX)) : -1;
      // The planted text, normalised alone, can read differently inside its document (look-alike letters are
      // mapped by the script around them): its windows cannot be told from the document's, so the view is left out.
      if (planted && plantedAt < 0 && view.kind === 'canonical') continue;
      for (const start of windowStarts(view.text.length, params.windowChars, params.strideChars)) {
        const end = Math.min(view.text.length, start + params.windowChars);
        let label = sample.label;
        if (planted && plantedAt >= 0) {
          const holdsPlanted = plantedAt >= start && plantedAt + Math.min(planted.length, PLANTED_PREFIX) <= end;
          const touchesPlanted = plantedAt < end && plantedAt + planted.length > start;
          if (!holdsPlanted && touchesPlanted) continue;
          label = holdsPlanted ? 1 : 0;
        }
        windows.push({ text: view.cased.slice(start, end), view: view.cased, start, label });
      }
    }
  }
  return windows;
}

function sparse(buckets: Int32Array, length: number): SparseVector {
  const counts = new Map<number, number>();
  for (let k = 0; k < length; k++) counts.set(buckets[k], (counts.get(buckets[k]) ?? 0) + 1);
  const norm = Math.sqrt(Math.max(1, length));
  return { buckets: Int32Array.from(counts.keys()), values: Float32Array.from(counts.values(), (c) => c / norm) };
}

/**
 * The ranker's example of a window is what scoring sums for it: the words of the whole view that end inside the
 * window (a word begun before the window counts whole, one running past its end does not count).
 */
export function rankerExamples(windows: readonly LabelledWindow[], params: WindowParams, hashBits: number): RankerExample[] {
  const mask = (1 << hashBits) - 1;
  const features = createRankerFeatures();
  let featuresOf = '';
  return windows.map(({ view, start, label }) => {
    // The windows of one view come one after another: its words are found once.
    if (view !== featuresOf) {
      rankerFeatures(view, mask, params.strideChars, features);
      featuresOf = view;
    }
    const end = view.length <= params.windowChars ? view.length : start + params.windowChars;
    let first = 0;
    while (first < features.length && features.ends[first] <= start) first++;
    let last = first;
    while (last < features.length && features.ends[last] <= end) last++;
    return { ...sparse(features.buckets.subarray(first, last), last - first), label };
  });
}

export function judgeExamples(windows: readonly LabelledWindow[], hashBits: number, vocabulary: Vocabulary): JudgeExample[] {
  const mask = (1 << hashBits) - 1;
  const features = createJudgeFeatures();
  return windows.map(({ text, label }) => {
    judgeFeatures(text, mask, vocabulary, features);
    return { ...sparse(features.buckets, features.length), label, structure: features.structure.slice(0, STRUCTURE_MEASURES) };
  });
}
