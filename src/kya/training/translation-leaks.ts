/**
 * Translation leaks: a bank text of a held-out split whose translation in another language (the same concept of
 * data/kya-corpus/alignment.json) is in training. The split groups each bank text alone, so such texts are held out
 * in one language only; `npm run eval:kya` reports its figures on the held-out samples free of them as well. A
 * concept written in many languages nearly always has a text in training, so the samples kept hold mostly texts
 * written in few languages or left alone by the alignment.
 */
import { splitOf, type Sample } from './dataset.ts';

/**
 * Whether a sample holds no text whose concept has a text in training, in any language: neither its own group's
 * texts nor the texts it is composed with (`Sample.parts`).
 */
export function isTranslationLeakFree(conceptsOf: ReadonlyMap<string, ReadonlySet<string>>): (sample: Pick<Sample, 'group' | 'parts'>) => boolean {
  const trained = new Set<string>();
  for (const [group, concepts] of conceptsOf) if (splitOf(group) === 'train') for (const concept of concepts) trained.add(concept);
  const leaks = (group: string) => [...(conceptsOf.get(group) ?? [])].some((concept) => trained.has(concept));
  return ({ group, parts = [] }) => !leaks(group) && !parts.some(leaks);
}
