import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDataset, conceptsOfGroups, defaultDatasetOptions, splitOf, type Alignment } from '../../src/kya/training/dataset.ts';
import { isTranslationLeakFree } from '../../src/kya/training/translation-leaks.ts';

const options = defaultDatasetOptions();
/** The first `corpus:<language>:task:<i>` group that falls in `split`. */
const taskGroupIn = (language: string, split: string) => {
  for (let i = 0; ; i++) if (splitOf(`corpus:${language}:task:${i}`) === split) return `corpus:${language}:task:${i}`;
};

describe('KYA translation leaks', () => {
  const heldOut = taskGroupIn('fr', 'test');
  const translationInTraining = taskGroupIn('de', 'train');
  const alone = taskGroupIn('it', 'test');
  const conceptsOf = new Map([
    [heldOut, new Set(['task:a'])],
    [translationInTraining, new Set(['task:a'])],
    [alone, new Set(['task:b'])],
  ]);

  it('leaves out a held-out text whose translation is in training, and keeps one whose concept is held out', () => {
    const leakFree = isTranslationLeakFree(conceptsOf);
    expect(leakFree({ group: heldOut })).toBe(false);
    expect(leakFree({ group: alone })).toBe(true);
    expect(leakFree({ group: 'purplellama:1' })).toBe(true);
  });

  it('leaves out a sample composed with such a text', () => {
    const override = taskGroupIn('fr', 'test').replace(':task:', ':override:');
    const leakFree = isTranslationLeakFree(conceptsOf);
    expect(leakFree({ group: override, parts: [heldOut] })).toBe(false);
    expect(leakFree({ group: override, parts: [alone] })).toBe(true);
  });

  it('has a concept for every text of the language banks (rerun scripts/align-kya-corpus.ts when they change)', () => {
    const alignment = JSON.parse(readFileSync(path.join(options.corpusDir, 'alignment.json'), 'utf8')) as Alignment;
    for (const file of readdirSync(path.join(options.corpusDir, 'languages'))) {
      const language = file.replace(/\.json$/, '');
      const bank = JSON.parse(readFileSync(path.join(options.corpusDir, 'languages', file), 'utf8')) as Record<string, string[]>;
      for (const [key, texts] of Object.entries(bank)) {
        if (key !== 'connector') expect(alignment[key as keyof Alignment]?.[language]?.length, `${language} ${key}`).toBe(texts.length);
      }
    }
  });

  it('on the corpus, leaves out the held-out samples of a text whose translation is in training, and keeps others', () => {
    const test = buildDataset(options).filter((s) => splitOf(s.group) === 'test');
    const concepts = conceptsOfGroups(options);
    const trained = new Set([...concepts].filter(([group]) => splitOf(group) === 'train').flatMap(([, c]) => [...c]));
    const leaked = test.find((s) => s.family === 'persuasion' && [...(concepts.get(s.group) ?? [])].some((c) => trained.has(c)));
    expect(leaked).toBeDefined();
    const leakFree = isTranslationLeakFree(concepts);
    expect(leakFree(leaked!)).toBe(false);
    // A composed sample whose own text is held out in every language but a part's translation is in training.
    const leakedPart = test.find((s) => s.family === 'override_task' && ![...(concepts.get(s.group) ?? [])].some((c) => trained.has(c)) && s.parts!.some((part) => [...(concepts.get(part) ?? [])].some((c) => trained.has(c))));
    expect(leakedPart).toBeDefined();
    expect(leakFree(leakedPart!)).toBe(false);
    const kept = test.filter(leakFree);
    expect(kept.length).toBeLessThan(test.length);
    // Bank texts none of whose translations is in training stay, as do the public samples, which hold no bank text.
    expect(kept.some((s) => s.source === 'corpus' && concepts.has(s.group))).toBe(true);
    expect(test.filter((s) => s.source === 'public').every(leakFree)).toBe(true);
  });
});
