/**
 * Writes data/kya-corpus/alignment.json: for each text of the language banks, a concept key that its translations
 * in the other languages share, so that `npm run eval:kya` can tell the held-out texts none of whose translations
 * is in training.
 *   node --import tsx scripts/align-kya-corpus.ts           (writes the file; needs the repository's history)
 *   node --import tsx scripts/align-kya-corpus.ts --print   (prints each concept's texts, to read them)
 * The banks were written round by round, each round translating one list into every language in its order (with
 * texts left out, added, moved or written anew, and whole runs of a list shared by a few languages only). The
 * commit that added a text (git blame) tells its round; within a round's block of a bank every pair of languages is
 * aligned one text to one in order (Gale–Church style: a match scores the log-likelihood ratio of a translation
 * against an unrelated text, from the normalised length ratio, kept tokens (numbers, Latin words, identifiers,
 * addresses), punctuation shape and, between languages of one script, shared word stems); a match counts only
 * inside a run of matches on the diagonal, or, scoring above nought, where two lists of one length match whole on
 * it, and the matches, strongest first, join texts into concepts of at most one
 * text per language, a text joining a concept only when it is matched with at least half of its texts. A text that
 * joins none is a concept alone. The banks' first two rounds (11 languages, then 13 more) translated one list, so
 * they are one block.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CORPUS = path.resolve(new URL('../data/kya-corpus', import.meta.url).pathname);
/** The rounds that wrote one list for different languages: read as one block. */
const SAME_LIST: Record<string, string> = { e932d1e: 'c52603d' };

interface Placed {
  language: string;
  bank: string;
  index: number;
  text: string;
  block: string;
}

/** git blame in a shallow clone gives its oldest commit for every older line: the rounds, and so the concepts, change. */
function assertFullHistory(): void {
  if (execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: CORPUS, encoding: 'utf8' }).trim() === 'true') {
    throw new Error('a shallow clone: the rounds come from git blame and need the full history (git fetch --unshallow)');
  }
}

/** Each bank text of a language file with the commit that added its line. */
function placedTexts(language: string): Placed[] {
  const file = path.join(CORPUS, 'languages', `${language}.json`);
  const banks = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
  const blame = execFileSync('git', ['blame', '-s', '--abbrev=6', file], { cwd: CORPUS, encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n');
  const placed: Placed[] = [];
  let bank: string | undefined;
  let index = 0;
  for (const line of blame) {
    const content = /^\^?(\w+)\s+\d+\)\s?(.*)$/.exec(line);
    if (!content) continue;
    const [, commit, source] = content;
    const header = /^\s*"(\w+)": \[\s*$/.exec(source);
    if (header) [bank, index] = [header[1], 0];
    else if (/^\s*\],?\s*$/.test(source)) bank = undefined;
    else if (bank && /^\s*"/.test(source)) {
      const text = banks[bank][index];
      if (JSON.parse(source.trim().replace(/,$/, '')) !== text) throw new Error(`${language}.${bank}[${index}]: blame and JSON disagree`);
      placed.push({ language, bank, index: index++, text, block: SAME_LIST[commit.slice(0, 7)] ?? commit.slice(0, 7) });
    }
  }
  for (const [name, texts] of Object.entries(banks)) {
    if (placed.filter((p) => p.bank === name).length !== texts.length) throw new Error(`${language}.${name}: not one text a line`);
  }
  return placed;
}

/** The zero of each run of decimal digits the banks write (ASCII, Arabic-Indic, Persian, Devanagari, Bengali, Thai, full width). */
const DIGIT_ZEROS = [0x30, 0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0xff10];

const asciiDigits = (text: string) =>
  text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code < z + 10);
    return zero === undefined ? digit : String(code - zero);
  });

const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['latin', /\p{Script=Latin}/gu],
  ['cyrillic', /\p{Script=Cyrillic}/gu],
  ['arabic', /\p{Script=Arabic}/gu],
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ['hangul', /\p{Script=Hangul}/gu],
  ['devanagari', /\p{Script=Devanagari}/gu],
  ['bengali', /\p{Script=Bengali}/gu],
  ['thai', /\p{Script=Thai}/gu],
];

/** The script most of `text`'s letters are written in. */
function scriptOf(text: string): string {
  return SCRIPTS.map(([name, letters]) => [name, text.match(letters)?.length ?? 0] as const).reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/** What a text's punctuation says about it: a question, a request to go on, a list of lines, code, quotes, slots. */
function shape(text: string): string[] {
  const trimmed = text.trim();
  const features: string[] = [];
  if (/[?？؟]$/.test(trimmed)) features.push('question');
  if (/[!！]$/.test(trimmed)) features.push('exclamation');
  if (/[:：]$/.test(trimmed)) features.push('colon');
  if (/\n/.test(trimmed)) features.push('lines');
  if (/[{}<>`=]|\/\/|^#|\[[^\]]+\]/.test(trimmed.replace(/\{\w+\}/g, ''))) features.push('code');
  if (/["“”«»„「」『』]/.test(trimmed)) features.push('quotes');
  for (const slot of trimmed.matchAll(/\{\w+\}/g)) features.push(`slot${slot[0]}`);
  return features;
}

/** A text as the alignment reads it. */
interface Features {
  logLength: number;
  /** What a translation keeps as it is: numbers, addresses, URLs, words in Latin letters (names, code, acronyms). */
  kept: string[];
  /** The first four letters of each word of four or more, without accents: shared stems between languages of one script. */
  stems: Set<string>;
  shape: string[];
}

const fold = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

function features(text: string): Features {
  const normal = asciiDigits(text.normalize('NFKC')).replace(/\s+/g, ' ').trim();
  const kept = [...normal.matchAll(/https?:\/\/[^\s"'»」]+|[\w.+-]+@[\w.-]+|\d+|[A-Za-z_][A-Za-z0-9_./-]*[A-Za-z0-9_]/g)].map((m) => m[0].toLowerCase().replace(/\.+$/, ''));
  const stems = new Set([...normal.matchAll(/[\p{L}\p{M}]{4,}/gu)].map((m) => fold(m[0]).slice(0, 4)));
  return { logLength: Math.log(Math.max(2, [...normal].length)), kept, stems, shape: shape(text) };
}

/** The log-likelihood ratios a match adds up, and how matches become concepts. */
const ALIGNMENT = {
  /** Standard deviation of the log length ratio of a text and its translation (once the lists' median ratio is taken out). */
  sigmaTranslation: 0.22,
  /** A kept token rare in both lists and in both texts (at most two count). */
  anchorGain: 3,
  /** Both texts hold rare kept tokens, none of them shared. */
  anchorClash: 1.5,
  /** Each feature of punctuation shape one text has and the other lacks. */
  shapeMismatch: 1.2,
  /** Times the Dice coefficient of the texts' rare stems, between languages of one script. */
  cognateGain: 6,
  /** Opening a gap between runs of matches, and each text the gap skips. */
  gapOpen: 2,
  gapExtend: 0.05,
  /** A match counts with the matches up to this many places before and after it on the same diagonal. */
  runRadius: 3,
  /** The summed ratio of a match's run below which the match is left out. */
  minRun: 3,
  /** Lists of one length from this many texts up, matched whole on the diagonal, keep each match scoring above nought. */
  minWholeList: 3,
  /** A text (or concept) joins a concept only when matched with at least this share of its texts. */
  minMatchedShare: 0.5,
  /** A kept token in at most this share of a list's texts (and at least 2) is rare there; a stem, at most twice it. */
  rareShare: 0.05,
};

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const deviation = (xs: readonly number[]) => {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, xs.length - 1));
};

/** How many texts of a list hold each item (`of` gives a text's items). */
function documentFrequencies(list: readonly Features[], of: (f: Features) => Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of list) for (const token of new Set(of(item))) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/**
 * The log-likelihood ratio, translation against unrelated text, of each pair of a text of `a` and one of `b`: the
 * normalised length ratio (lengths spread as the lists' do for unrelated texts, as `sigmaTranslation` for a
 * translation), rare kept tokens shared or clashing, punctuation shape, and shared rare stems when both are written
 * in one script.
 */
function matchScore(a: readonly Features[], b: readonly Features[], sameScript: boolean): (i: number, j: number) => number {
  const shift = median(b.map((f) => f.logLength)) - median(a.map((f) => f.logLength));
  const sigma = ALIGNMENT.sigmaTranslation;
  const sigmaUnrelated = Math.max(1.5 * sigma, Math.SQRT2 * deviation([...a.map((f) => f.logLength), ...b.map((f) => f.logLength - shift)]));
  const lengthPeak = Math.log(sigmaUnrelated / sigma);
  const [keptA, keptB] = [documentFrequencies(a, (f) => f.kept), documentFrequencies(b, (f) => f.kept)];
  const [stemsA, stemsB] = [documentFrequencies(a, (f) => f.stems), documentFrequencies(b, (f) => f.stems)];
  const rareIn = (list: readonly Features[], share: number) => Math.max(2, Math.floor(list.length * share));
  const [limitA, limitB] = [rareIn(a, ALIGNMENT.rareShare), rareIn(b, ALIGNMENT.rareShare)];
  const sharedRare = a.map((f) => f.kept.filter((t) => keptA.get(t)! <= limitA && (keptB.get(t) ?? 0) > 0 && keptB.get(t)! <= limitB));
  const ownRareA = a.map((f) => f.kept.some((t) => keptA.get(t)! <= limitA && !keptB.has(t)));
  const ownRareB = b.map((f) => f.kept.some((t) => keptB.get(t)! <= limitB && !keptA.has(t)));
  const [stemLimitA, stemLimitB] = [rareIn(a, 2 * ALIGNMENT.rareShare), rareIn(b, 2 * ALIGNMENT.rareShare)];
  const rareStemsA = a.map((f) => [...f.stems].filter((s) => stemsA.get(s)! <= stemLimitA));
  const rareStemsB = b.map((f) => new Set([...f.stems].filter((s) => stemsB.get(s)! <= stemLimitB)));
  return (i, j) => {
    const d = b[j].logLength - shift - a[i].logLength;
    let score = lengthPeak - (d * d) / (2 * sigma * sigma) + (d * d) / (2 * sigmaUnrelated * sigmaUnrelated);
    const shared = new Set(sharedRare[i].filter((t) => b[j].kept.includes(t))).size;
    score += ALIGNMENT.anchorGain * Math.min(2, shared);
    if (shared === 0 && (sharedRare[i].length > 0 || ownRareA[i]) && ownRareB[j]) score -= ALIGNMENT.anchorClash;
    const [shapeA, shapeB] = [a[i].shape, b[j].shape];
    score -= ALIGNMENT.shapeMismatch * (shapeA.filter((f) => !shapeB.includes(f)).length + shapeB.filter((f) => !shapeA.includes(f)).length);
    if (sameScript && rareStemsA[i].length > 0 && rareStemsB[j].size > 0) {
      const common = rareStemsA[i].filter((s) => rareStemsB[j].has(s)).length;
      score += (ALIGNMENT.cognateGain * 2 * common) / (rareStemsA[i].length + rareStemsB[j].size);
    }
    return score;
  };
}

/**
 * The one-to-one alignment in order of two lists that maximises the summed score of its matches less the gaps
 * between runs of matches (a gap opened costs `gapOpen`, each text it skips `gapExtend`; lists written from one list
 * match in runs, with texts left out or added between them), each match with the summed score of its run: the matches
 * of the path on its diagonal up to `runRadius` places away, so that a chance pair of lengths does not count alone.
 */
function alignPair(a: readonly Features[], b: readonly Features[], sameScript: boolean): Array<{ i: number; j: number; run: number }> {
  const score = matchScore(a, b, sameScript);
  const [n, m] = [a.length, b.length];
  const width = m + 1;
  const cells = (n + 1) * width;
  // Gotoh's three states: the path so far ends with a match, with a text of `a` skipped, with a text of `b` skipped.
  const [MATCH, SKIP_A, SKIP_B] = [0, 1, 2];
  const total = [new Float64Array(cells).fill(-Infinity), new Float64Array(cells).fill(-Infinity), new Float64Array(cells).fill(-Infinity)];
  const from = [new Uint8Array(cells), new Uint8Array(cells), new Uint8Array(cells)];
  const gain = new Float64Array(cells);
  const { gapOpen, gapExtend } = ALIGNMENT;
  total[MATCH][0] = 0;
  const best = (at: number, costs: readonly number[]): [number, number] => {
    let [value, state] = [-Infinity, MATCH];
    for (let k = 0; k < 3; k++) if (total[k][at] - costs[k] > value) [value, state] = [total[k][at] - costs[k], k];
    return [value, state];
  };
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      const at = i * width + j;
      if (i > 0 && j > 0) {
        gain[at] = score(i - 1, j - 1);
        const [value, state] = best(at - width - 1, [0, 0, 0]);
        [total[MATCH][at], from[MATCH][at]] = [value + gain[at], state];
      }
      if (i > 0) [total[SKIP_A][at], from[SKIP_A][at]] = best(at - width, [gapOpen + gapExtend, gapExtend, gapOpen + gapExtend]);
      if (j > 0) [total[SKIP_B][at], from[SKIP_B][at]] = best(at - 1, [gapOpen + gapExtend, gapOpen + gapExtend, gapExtend]);
    }
  }
  const path: Array<{ i: number; j: number; gain: number }> = [];
  let [, state] = best(n * width + m, [0, 0, 0]);
  for (let i = n, j = m; i > 0 || j > 0; ) {
    const previous = from[state][i * width + j];
    if (state === MATCH) path.push({ i: i - 1, j: j - 1, gain: gain[i * width + j] });
    if (state !== SKIP_B) i--;
    if (state !== SKIP_A) j--;
    state = previous;
  }
  path.reverse();
  const onDiagonal = (k: number, match: { i: number; j: number }, step: number) => path[k] !== undefined && path[k].i - match.i === step && path[k].j - match.j === step;
  // Two lists of one length matched whole on the diagonal are mostly one list translated, yet between two scripts,
  // with lengths and punctuation alone, a run stays below `minRun` (ar/bn, ar/sw, hi/ur at the same places).
  const wholeList = n === m && n >= ALIGNMENT.minWholeList && path.length === n && path.every((match) => match.i === match.j);
  return path.map((match, k) => {
    let run = match.gain;
    for (let step = 1; step <= ALIGNMENT.runRadius; step++) {
      if (onDiagonal(k - step, match, -step)) run += path[k - step].gain;
      if (onDiagonal(k + step, match, step)) run += path[k + step].gain;
    }
    return { i: match.i, j: match.j, run: wholeList && match.gain > 0 ? Math.max(run, ALIGNMENT.minRun) : run };
  });
}

/**
 * Concept keys `<block>:<language><place>` (the place of the concept's first text in its language's list of the
 * block) for the texts of one bank: every pair of languages of a block aligned, and the matches, strongest run first,
 * joining texts into concepts of at most one text per language, each joining only where it is matched with at least
 * `minMatchedShare` of the texts of the concept it joins (and they with it).
 */
function concepts(texts: readonly Placed[]): string[] {
  const keys = new Array<string>(texts.length);
  for (const block of new Set(texts.map((t) => t.block))) {
    const ids = texts.flatMap((t, id) => (t.block === block ? [id] : []));
    const byLanguage = new Map<string, number[]>();
    for (const id of ids) byLanguage.set(texts[id].language, [...(byLanguage.get(texts[id].language) ?? []), id]);
    const languages = [...byLanguage.keys()].sort();
    const read = new Map(ids.map((id) => [id, features(texts[id].text)]));
    const script = new Map(languages.map((l) => [l, scriptOf(byLanguage.get(l)!.map((id) => texts[id].text).join(' '))]));
    const matches: Array<{ x: number; y: number; run: number }> = [];
    languages.forEach((la, k) =>
      languages.slice(k + 1).forEach((lb) => {
        const [idsA, idsB] = [byLanguage.get(la)!, byLanguage.get(lb)!];
        for (const { i, j, run } of alignPair(idsA.map((id) => read.get(id)!), idsB.map((id) => read.get(id)!), script.get(la) === script.get(lb))) {
          if (run >= ALIGNMENT.minRun) matches.push({ x: idsA[i], y: idsB[j], run });
        }
      }),
    );
    matches.sort((p, q) => q.run - p.run || p.x - q.x || p.y - q.y);
    const matched = new Set(matches.map(({ x, y }) => `${x}:${y}`));
    const isMatched = (x: number, y: number) => matched.has(x < y ? `${x}:${y}` : `${y}:${x}`);
    const conceptOf = new Map(ids.map((id) => [id, id]));
    const members = new Map(ids.map((id) => [id, [id]]));
    for (const { x, y } of matches) {
      const [cx, cy] = [conceptOf.get(x)!, conceptOf.get(y)!];
      if (cx === cy) continue;
      const [mx, my] = [members.get(cx)!, members.get(cy)!];
      if (mx.some((i) => my.some((j) => texts[i].language === texts[j].language))) continue;
      const pairs = mx.reduce((n, i) => n + my.filter((j) => isMatched(i, j)).length, 0);
      if (pairs < ALIGNMENT.minMatchedShare * mx.length * my.length) continue;
      const [kept, joined] = cx < cy ? [cx, cy] : [cy, cx];
      for (const id of members.get(joined)!) conceptOf.set(id, kept);
      members.set(kept, [...mx, ...my]);
      members.delete(joined);
    }
    const place = new Map<number, number>();
    for (const list of byLanguage.values()) list.forEach((id, at) => place.set(id, at));
    for (const id of ids) {
      const first = conceptOf.get(id)!;
      keys[id] = `${block}:${texts[first].language}${place.get(first)}`;
    }
  }
  return keys;
}

function main(): void {
  assertFullHistory();
  const languages = readdirSync(path.join(CORPUS, 'languages')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  const placed = languages.flatMap(placedTexts);
  const alignment: Record<string, Record<string, string[]>> = {};
  for (const bank of [...new Set(placed.map((p) => p.bank))].filter((b) => b !== 'connector').sort()) {
    const texts = placed.filter((p) => p.bank === bank);
    const keys = concepts(texts);
    alignment[bank] = Object.fromEntries(languages.map((l) => [l, texts.flatMap((t, i) => (t.language === l ? [keys[i]] : []))]).filter(([, k]) => k.length > 0));
    if (process.argv.includes('--print')) {
      const byKey = new Map<string, string[]>();
      texts.forEach((t, i) => byKey.set(keys[i], [...(byKey.get(keys[i]) ?? []), `  ${t.language}: ${t.text.slice(0, 120)}`]));
      for (const [key, lines] of byKey) console.log(`${bank} ${key}\n${lines.join('\n')}`);
    }
    const sizes = new Map<string, number>();
    for (const key of keys) sizes.set(key, (sizes.get(key) ?? 0) + 1);
    const translated = [...sizes.values()].filter((n) => n > 1);
    console.error(`${bank}: ${texts.length} texts in ${sizes.size} concepts; ${translated.length} of them in several languages hold ${translated.reduce((s, n) => s + n, 0)} texts`);
  }
  if (!process.argv.includes('--print')) writeFileSync(path.join(CORPUS, 'alignment.json'), `${JSON.stringify(alignment)}\n`);
}

main();
