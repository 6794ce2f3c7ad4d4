/** Turns samples into the sparse vectors the model is trained on: exactly what the screener will look at. */
import { createFeatures, extractFeatures, windowStarts } from '../model.ts';
import { normalisePrompt, type PromptView } from '../normalise.ts';
import type { Sample } from './dataset.ts';

export interface Example {
  buckets: Int32Array;
  values: Float32Array;
  label: 0 | 1;
}

interface FeatureParams {
  hashBits: number;
  windowChars: number;
  strideChars: number;
}

/** Opaque encodings: their undecoded text is noise, the decoded view carries the label. */
const OPAQUE_ENCODINGS = new Set(['base64', 'hex', 'url', 'rot13']);
/** How much of a planted instruction a window must hold to be labelled an injection. */
const PLANTED_PREFIX = 40;

const features = createFeatures();

function vectorise(text: string, mask: number): { buckets: Int32Array; values: Float32Array } {
  extractFeatures(text, mask, text.length || 1, features);
  const counts = new Map<number, number>();
  for (let k = 0; k < features.length; k++) counts.set(features.buckets[k], (counts.get(features.buckets[k]) ?? 0) + 1);
  const buckets = Int32Array.from(counts.keys());
  const norm = Math.sqrt(Math.max(1, features.length));
  const values = Float32Array.from(counts.values(), (c) => c / norm);
  return { buckets, values };
}

function trainedViews(sample: Sample): PromptView[] {
  const views = normalisePrompt(sample.text).views;
  return sample.encoding && OPAQUE_ENCODINGS.has(sample.encoding) ? views.filter((v) => v.kind !== 'canonical') : views;
}

/**
 * One example per window of every normalised view of every sample. In a document with a planted instruction,
 * only the windows holding the instruction are injections; the rest of the document is benign text.
 */
export function trainingExamples(samples: readonly Sample[], params: FeatureParams): Example[] {
  const mask = (1 << params.hashBits) - 1;
  const examples: Example[] = [];
  for (const sample of samples) {
    const planted = sample.injected ? normalisePrompt(sample.injected).views[0].text : null;
    for (const view of trainedViews(sample)) {
      const plantedAt = planted ? view.text.indexOf(planted.slice(0, PLANTED_PREFIX)) : -1;
      for (const start of windowStarts(view.text.length, params.windowChars, params.strideChars)) {
        const end = Math.min(view.text.length, start + params.windowChars);
        let label = sample.label;
        if (planted && plantedAt >= 0) {
          const holdsPlanted = plantedAt >= start && plantedAt + Math.min(planted.length, PLANTED_PREFIX) <= end;
          const touchesPlanted = plantedAt < end && plantedAt + planted.length > start;
          // A window with only a fragment of the instruction is neither clearly an injection nor clearly benign.
          if (!holdsPlanted && touchesPlanted) continue;
          label = holdsPlanted ? 1 : 0;
        }
        examples.push({ ...vectorise(view.cased.slice(start, end), mask), label });
      }
    }
  }
  return examples;
}
