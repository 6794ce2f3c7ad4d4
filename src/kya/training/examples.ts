/** Turns samples into the sparse vectors the model is trained on: exactly what the screener will look at. */
import { visitFeatures, windowStarts } from '../model.ts';
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

function vectorise(text: string, mask: number): { buckets: Int32Array; values: Float32Array } {
  const counts = new Map<number, number>();
  let total = 0;
  visitFeatures(text, mask, (bucket) => {
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
    total++;
  });
  const buckets = Int32Array.from(counts.keys());
  const norm = Math.sqrt(Math.max(1, total));
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
    const planted = sample.injected ? normalisePrompt(sample.injected).views[0].text.slice(0, PLANTED_PREFIX) : null;
    for (const view of trainedViews(sample)) {
      const plantedAt = planted ? view.text.indexOf(planted) : -1;
      for (const start of windowStarts(view.text.length, params.windowChars, params.strideChars)) {
        const window = view.text.slice(start, start + params.windowChars);
        const holdsPlanted = plantedAt >= start && plantedAt + planted!.length <= start + window.length;
        const label = planted && plantedAt >= 0 && !holdsPlanted ? 0 : sample.label;
        examples.push({ ...vectorise(window, mask), label });
      }
    }
  }
  return examples;
}
