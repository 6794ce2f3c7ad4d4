/**
 * Writes data/kya-corpus/alignment.json: for each text of the language banks, a concept key that its translations
 * in the other languages share, so that `npm run eval:kya` can tell the held-out texts none of whose translations
 * is in training.
 *   node --import tsx scripts/align-kya-corpus.ts           (writes the file; needs the repository's history)
 *   node --import tsx scripts/align-kya-corpus.ts --print   (prints each concept's texts, to read them)
 * The banks were written round by round, each round translating one list into every language in its order (with
 * texts left out, added or moved by a few places). The commit that added a text (git blame) tells its round, and
 * its place in that round's block of the bank tells where in the list it stands: a concept is one band of places in
 * the block, the same places in every language, wide enough that a text moved by a place or two mostly stays in it.
 * Texts of one block that share a rare anchor (an address, an identifier, a capitalised Latin token, a long number)
 * a few places apart join their bands, since a translation can sit across a band's edge. The banks' first two rounds
 * (11 languages, then 13 more) translated one list, so they are one block.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CORPUS = path.resolve(new URL('../data/kya-corpus', import.meta.url).pathname);
/** The rounds that wrote one list for different languages: read as one block. */
const SAME_LIST: Record<string, string> = { e932d1e: 'c52603d' };
/** How many places of a block one band holds. */
const PLACES_PER_BAND = 5;

interface Placed {
  language: string;
  bank: string;
  index: number;
  text: string;
  block: string;
}

/** Each bank text of a language file with the commit that added its line. */
function placedTexts(language: string): Placed[] {
  const file = path.join(CORPUS, 'languages', `${language}.json`);
  const banks = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
  const blame = execFileSync('git', ['blame', '-s', '--abbrev=6', file], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n');
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

/**
 * What survives translation: addresses, URLs, identifiers (OPENAI_API_KEY, send_money), capitalised Latin tokens
 * (YAML, PWNED), numbers of three digits or more.
 */
function anchors(text: string): Set<string> {
  const found = text.normalize('NFKC').matchAll(/[\w.+-]+@[\w.-]+|https?:\/\/[^\s"'»」]+|\b[\w-]+\.(?:example|com|org|net|io|test)\b|\b[A-Za-z]+_\w+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][A-Z0-9]{2,}\b|\d{3,}/g);
  return new Set([...found].map((m) => m[0].toLowerCase().replace(/[.,;:)]+$/, '')));
}

/** An anchor in at most this many texts of a bank names one concept (its translations), not a habit of the bank. */
const RARE_ANCHOR_TEXTS = 30;
/** Texts of one block that share a rare anchor, this many places apart or fewer, join their bands. */
const ANCHOR_REACH = 2 * PLACES_PER_BAND;
/** A concept joins at most this many bands, so that chains of anchors do not make one concept of a block. */
const MAX_BANDS_PER_CONCEPT = 3;

/**
 * Concept keys `<block>:<band>` for the texts of one bank: the band of places, with the bands of texts that share
 * a rare anchor nearby joined (a translation moved by a few places across a band's edge); a text of a band that only
 * one language reaches (en's lists run longest) is a concept alone.
 */
function concepts(texts: readonly Placed[]): string[] {
  const placeInBlock = new Map<string, number>();
  const places = texts.map((t) => {
    const at = `${t.language}:${t.block}`;
    const place = placeInBlock.get(at) ?? 0;
    placeInBlock.set(at, place + 1);
    return place;
  });
  const bandOf = (i: number) => `${texts[i].block}:${Math.floor(places[i] / PLACES_PER_BAND)}`;
  const parent = new Map<string, string>();
  const size = new Map<string, number>();
  const find = (band: string): string => {
    while (parent.has(band) && parent.get(band) !== band) band = parent.get(band)!;
    return band;
  };
  const textAnchors = texts.map((t) => anchors(t.text));
  const holders = new Map<string, number[]>();
  textAnchors.forEach((set, i) => set.forEach((anchor) => holders.set(anchor, [...(holders.get(anchor) ?? []), i])));
  for (const [, held] of [...holders].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (held.length > RARE_ANCHOR_TEXTS) continue;
    for (const i of held) {
      for (const j of held) {
        if (j <= i || texts[i].language === texts[j].language || texts[i].block !== texts[j].block || Math.abs(places[i] - places[j]) > ANCHOR_REACH) continue;
        const [a, b] = [find(bandOf(i)), find(bandOf(j))];
        if (a === b || (size.get(a) ?? 1) + (size.get(b) ?? 1) > MAX_BANDS_PER_CONCEPT) continue;
        const [root, child] = Number(a.split(':')[1]) < Number(b.split(':')[1]) ? [a, b] : [b, a];
        parent.set(child, root);
        size.set(root, (size.get(a) ?? 1) + (size.get(b) ?? 1));
      }
    }
  }
  const bands = texts.map((_, i) => find(bandOf(i)));
  // A band written in one language alone holds no translation: its texts stay apart, as finer groups split better.
  const languagesOf = new Map<string, Set<string>>();
  bands.forEach((band, i) => languagesOf.set(band, (languagesOf.get(band) ?? new Set()).add(texts[i].language)));
  return bands.map((band, i) => (languagesOf.get(band)!.size > 1 ? band : `${band}:${texts[i].language}${places[i]}`));
}

function main(): void {
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
    console.error(`${bank}: ${texts.length} texts in ${new Set(keys).size} concepts`);
  }
  if (!process.argv.includes('--print')) writeFileSync(path.join(CORPUS, 'alignment.json'), `${JSON.stringify(alignment)}\n`);
}

main();
