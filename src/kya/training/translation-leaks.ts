/**
 * Translation leaks: a bank text of a held-out split whose translation in another language (the same concept of
 * data/kya-corpus/alignment.json) is in training. The split groups each bank text alone, so such texts are held out
 * in one language only; `npm run eval:kya` reports its figures on the held-out samples free of them as well.
 */
import { splitOf, type DrawTrace, type Sample } from './dataset.ts';

/** A `DrawTrace` that records, for each sample group, the groups of the texts its samples are composed with. */
export function compositionTrace(): { onDraw: DrawTrace; partsOf: Map<string, Set<string>> } {
  const partsOf = new Map<string, Set<string>>();
  return {
    partsOf,
    // Suffix words are lent by training texts by design: a word is not a translation of a text.
    onDraw: (sample, source, kind) => {
      if (kind !== 'suffix') partsOf.set(sample, (partsOf.get(sample) ?? new Set()).add(source));
    },
  };
}

/**
 * Whether a sample holds no text whose concept has a text in training, in any language: neither its own group's
 * texts nor those of the groups its group's samples are composed with (all of them: the trace is by group, so a
 * sample is also left out for a partner that only another sample of its group took).
 */
export function isTranslationLeakFree(
  conceptsOf: ReadonlyMap<string, ReadonlySet<string>>,
  partsOf: ReadonlyMap<string, ReadonlySet<string>>,
): (sample: Pick<Sample, 'group'>) => boolean {
  const trained = new Set<string>();
  for (const [group, concepts] of conceptsOf) if (splitOf(group) === 'train') for (const concept of concepts) trained.add(concept);
  const leaks = (group: string) => [...(conceptsOf.get(group) ?? [])].some((concept) => trained.has(concept));
  return ({ group }) => !leaks(group) && ![...(partsOf.get(group) ?? [])].some(leaks);
}
