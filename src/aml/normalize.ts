// Name normalisation shared by the index and the queries, so both sides meet in the same form:
// NFKC → script-aware transliteration to Latin (any-ascii) → lower case → apostrophes joined, acronym dots
// joined, other punctuation split → tokens. Honorifics are dropped; legal forms and particles are "weak"
// tokens that never create a match on their own.

import anyAscii from 'any-ascii';
import { LEGAL_FORM_WORDS, foldLegalFormsAndNumbers } from './legal-forms.ts';
import { isPinyinSyllable } from './similarity.ts';

const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'dame', 'lord', 'haji', 'hajji',
  'mullah', 'maulana', 'imam', 'gen', 'general', 'col', 'colonel', 'maj', 'major', 'capt', 'captain', 'lt',
  'brig', 'brigadier', 'admiral', 'hon', 'rev', 'excellency', 'his', 'her', 'ayatollah', 'ayatullah', 'hojatoleslam',
]);

/**
 * Titles that lists also write as part of a name ("SAYYED, Hassan", "MAWLAWI, Abdul Kabir"), so they are not
 * dropped like the honorifics above; a query that opens with one is also read without it (see withoutLeadingTitle).
 */
const NAME_TITLES = new Set([
  'sayyed', 'sayyid', 'sayed', 'sayid', 'seyed', 'seyyed', 'mawlawi', 'maulvi', 'molvi', 'mawlavi', 'mufti', 'qari',
  'hajj', 'hadji', 'mulla', 'mollah', 'molla', 'shaikh', 'sheikh', 'shaykh', 'sheik',
]);

/** Whether a token is a title that lists also write as a name part (see NAME_TITLES). */
export function isNameTitle(token: string): boolean {
  return NAME_TITLES.has(token);
}

/** The name without its leading title when it opens with one and two or more words follow ("Sayyed Hassan Nasrallah"). */
export function withoutLeadingTitle(raw: string): string | undefined {
  const words = raw.trim().split(/\s+/);
  if (words.length < 3) return undefined;
  const first = normaliseText(words[0]);
  return NAME_TITLES.has(first) ? words.slice(1).join(' ') : undefined;
}

/**
 * A nickname in quotation marks inside a name, a word after it ("Joaquín "El Chapo" Guzmán", "José «Pepe» Mujica"):
 * quoted words that close a name are an organisation's name after its form ('OOO "Romashka"', 'Design Bureau "Sukhoi"').
 */
const QUOTED_NICKNAME = /\s*["“”«»„][^"“”«»„]*["“”«»„]\s*(?=\S)/g;
/**
 * Words that join one name of a bearer to another ("… alias El Chapo", "aka", "a.k.a.", "also known as"), in lower or
 * upper case: "Aka" and "Alias" written as names are names (Ivorian "Jean-Louis Aka Ehouman").
 */
const ALIAS_MARKER = /\s+(?:alias|ALIAS|aka|AKA|a\.k\.a\.?|A\.K\.A\.?|[Aa]lso [Kk]nown [Aa]s|ALSO KNOWN AS)\s+/;

/**
 * How many words of a name name its bearer: not only a particle, title, legal form or initial ("El Negro", "Abu Omar"
 * and "Big B" one).
 */
function namingWordCount(name: string): number {
  return name.split(/\s+/).filter((word) => tokenise(word).some((token) => token.length > 1 && !isWeakToken(token) && !isNameTitle(token))).length;
}

/**
 * The names a query writes of one bearer beside each other, each to be read alone: the name without a nickname in
 * quotation marks inside it ("Joaquín Guzmán"), and each name on either side of "alias" or "aka" ("Joaquín Guzmán
 * Loera"); empty when the query writes one name only. A name is read alone only when two words or more of it name
 * the bearer: a lone given name, nickname or kunya ("Otoniel", "El Negro", "Abu Omar") is what many people are called,
 * too weak to alert on without the rest. The words outside the quotes are no name when they hold a legal form: an
 * organisation's quoted words are its name ('Federal State Unitary Enterprise "Rosoboronexport" of the Ministry').
 */
export function namesWrittenTogether(raw: string): string[] {
  const unquoted = raw.replace(QUOTED_NICKNAME, ' ').trim();
  const names = new Set<string>();
  // Two letters are a person's particle as often as a legal form ("Iyad Ag Ghaly", "Rhys ab Owen").
  const organisationForm = (name: string) => tokenise(name).some((token) => isWeakToken(token) && !NAME_PARTICLES.has(token) && token.length > 2);
  if (unquoted !== raw.trim() && !organisationForm(unquoted)) names.add(unquoted);
  for (const written of [raw, unquoted]) {
    const sides = written.split(ALIAS_MARKER).map((side) => side.trim());
    if (sides.length > 1) for (const side of sides) names.add(side);
  }
  return [...names].filter((name) => namingWordCount(name) >= 2);
}

/** Articles, particles and linking words: weak tokens that a person's name holds as well as an organisation's. */
const NAME_PARTICLES = new Set([
  'de', 'del', 'la', 'le', 'les', 'los', 'las', 'the', 'of', 'and', 'for', 'y', 'et', 'und', 'e', 'di', 'da', 'do',
  'dos', 'das', 'du', 'des', 'van', 'von', 'der', 'den', 'al', 'el', 'bin', 'ibn', 'bint', 'ben', 'abu', 'ould', 'uul',
]);

/** Legal forms and linking words: they describe, they do not identify. */
const WEAK_TOKENS = new Set([
  'ltd', 'limited', 'llc', 'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'companies', 'plc',
  'gmbh', 'mbh', 'ag', 'kg', 'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv', 'oy', 'ab', 'as', 'asa', 'jsc',
  'ojsc', 'pjsc', 'cjsc', 'zao', 'oao', 'ooo', 'pao', 'ao', 'tov', 'llp', 'lp', 'fze', 'fzco', 'fzc', 'fz', 'sdn',
  'bhd', 'pte', 'pvt', 'pty', 'kft', 'doo', 'sro', 'cv', ...NAME_PARTICLES, ...LEGAL_FORM_WORDS,
  // A company's place in a group says what it is part of, not which it is ("SOVCOMFLOT" and "Sovcomflot Group").
  'group', 'holding',
  // A works' kind, in English and as Russian and Uzbek registers write it: "Khorasan Steel" and "Khorasan Steel Complex"
  // (round 31). Kombinat is not folded to complex, so that an acronym keeps its K ("MMK": "Magnitogorskiy
  // Metallurgicheskiy Kombinat"). A broadcaster's "tv" is not weak: "Victory TV" is not a listed VICTORY.
  'complex', 'kombinat',
  // A vessel's prefix: motor vessel, motor tanker, steamship, fishing vessel.
  'mv', 'mt', 'ss', 'fv',
]);

export function isWeakToken(token: string): boolean {
  return WEAK_TOKENS.has(token);
}

/**
 * A broadcaster's kind ("tv", which legal-forms.ts folds television, telekompaniya, telekanal, qanat and
 * "broadcasting company" to): weak in a listed name, which a query may write by the brand alone ("NTV" for "NTV
 * Television", "Al-Manar" for "Qanat al-Manar"), but a word like any other in a query, whose broadcaster is not a
 * listed body of its brand's name without it ("Victory TV" is not a listed VICTORY, "Phoenix Television" not
 * PHOENIX). Round 31, as a closing place is left out on the listed side only (see places.ts).
 */
const LISTED_KIND_WORDS = new Set(['tv']);

export function isListedKindWord(token: string): boolean {
  return LISTED_KIND_WORDS.has(token);
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+/g;

/**
 * any-ascii writes a CJK run as capitalised syllables without spaces ("XiJinPing"). Names in those scripts are
 * romanised family name first, given name joined ("Xi Jinping"), so the first syllable is split off.
 */
function transliterateCjkRun(run: string): string {
  const chars = [...run];
  if (chars.length < 2 || chars.length > 4) return ` ${anyAscii(run)} `;
  return ` ${anyAscii(chars[0])} ${anyAscii(chars.slice(1).join('')).toLowerCase()} `;
}

// Greek spellings of foreign names write d, b, g, u and h with digraphs or letters that any-ascii reads
// letter by letter ("Σαντάμ Χουσεΐν" → "santam choysein"); read them as the names are written in Latin lists.
const GREEK_DIGRAPHS: Array<[RegExp, string]> = [
  [/ντ/g, 'd'], [/μπ/g, 'b'], [/γκ/g, 'g'], [/γγ/g, 'ng'], [/ου/g, 'u'], [/ού/g, 'u'], [/χ/g, 'h'],
];

function readGreek(text: string): string {
  let lower = text.toLowerCase();
  for (const [pattern, latin] of GREEK_DIGRAPHS) lower = lower.replace(pattern, latin);
  return lower;
}

/** Latin-script, lower-case, punctuation-free form of a name (tokens separated by single spaces). */
export function normaliseText(raw: string): string {
  let text = raw.normalize('NFKC');
  if (/[\u0370-\u03ff]/.test(text)) text = readGreek(text);
  if (CJK.test(text)) text = text.replace(CJK, transliterateCjkRun);
  CJK.lastIndex = 0;
  text = anyAscii(text).toLowerCase();
  text = text
    .replace(/['`’‘ʼʻ´]/g, '')
    .replace(/\b([a-z])\.(?=[a-z]\b)/g, '$1')
    // "M/V", "M/T", "A/S": one abbreviation, not two initials.
    .replace(/\b([a-z])\/([a-z])\b/g, '$1$2')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return text;
}

export interface NormalisedName {
  /** Tokens that identify (honorifics removed). */
  tokens: string[];
}

export function tokenise(raw: string): string[] {
  const text = normaliseText(raw);
  if (!text) return [];
  return foldLegalFormsAndNumbers(spellServantNames(text.split(' ').filter((t) => !HONORIFICS.has(t))));
}

/** "abd", "abdul", "abdel", "abdoul"… written apart from the name they belong to. */
const ABD = /^abd(?:[aeiou]?l|[aeiou]ul)?$/;
/** The article between: "abd al-rahman", "abd el aziz", "abd ul karim". */
const ABD_ARTICLE = /^[aeiou]l$/;
/** "abdulrahman", "abdelaziz": abd and its article joined to the name (not "abdullah", abd + allah). */
const ABD_JOINED = /^abd(?:[aeiou]?l|[aeiou]ul)(?!l)([a-z]{4,})$/;

/**
 * An Arabic "servant of" name written one way: "Abd al-Rahman", "Abdel Rahman", "Abd-al-Rahman" and
 * "Abdulrahman" all read "abdul rahman" (two tokens, so "Rahman Abdul" and a lone "Abdul" still pair). The
 * family name "Al-Abd" stays as it is.
 */
function spellServantNames(tokens: string[]): string[] {
  const spelt: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const servant = ABD_JOINED.exec(token);
    if (servant) {
      spelt.push('abdul', servant[1]);
    } else if (ABD.test(token) && i + 1 < tokens.length && !(i > 0 && ABD_ARTICLE.test(tokens[i - 1]))) {
      spelt.push('abdul');
      if (ABD_ARTICLE.test(tokens[i + 1]) && i + 2 < tokens.length) i++;
    } else {
      spelt.push(token);
    }
  }
  return spelt;
}

const CYRILLIC = /[\u0400-\u04ff]/;

/**
 * Romanisations of Cyrillic letters that differ from the BGN-like one any-ascii writes ("Хусейн" → khuseyn), as
 * rewrites of that form: GOST/ICAO/French/German habits and foreign names written back phonetically ("Джорге"
 * → dzhorge ~ jorge, "Кесар" → kesar ~ cesar, "Вон" → von ~ won). Each group rewrites all its matches at once.
 */
const ROMANISATION_GROUPS: Array<[RegExp, string[]]> = [
  [/dzh/g, ['j', 'dj']],
  [/kh/g, ['h']],
  [/zh/g, ['j']],
  [/ts/g, ['c', 'tz']],
  [/yu/g, ['iu', 'ju', 'u']],
  [/ya/g, ['ia', 'ja']],
  [/^e/g, ['ye', 'yo']],
  [/iy$/g, ['i', 'y']],
  [/y(?![aeiou])/g, ['i']],
  [/ks/g, ['x']],
  [/k(?![hs])/g, ['c']],
  [/v/g, ['w']],
];
/** More variants than this per token cost more look-ups than they find names. */
const MAX_ROMANISATIONS = 16;

/** Other Latin spellings of a token any-ascii romanised from Cyrillic, the token itself excluded. */
export function romanisationVariants(token: string): string[] {
  let forms = [token];
  for (const [pattern, replacements] of ROMANISATION_GROUPS) {
    if (!forms.some((form) => form.search(pattern) >= 0)) continue;
    const next = [...forms];
    for (const form of forms) {
      for (const replacement of replacements) {
        if (next.length >= MAX_ROMANISATIONS + 1) break;
        const rewritten = form.replace(pattern, replacement);
        if (!next.includes(rewritten)) next.push(rewritten);
      }
    }
    forms = next;
  }
  return forms.slice(1);
}

/**
 * How German (Duden), French, Spanish and Polish transcribe Cyrillic, undone into the BGN-like spelling the lists
 * use: "Jewgeni Prigoschin", "Evgueni Prigojine", "Yevgueni Prigozhin", "Jewgienij Prigożyn" all read yevgeni(y)
 * prigozhin. Rewrites apply in order; capitals stand for a finished BGN digraph so later rules leave it alone
 * (C ch, S sh, Z zh, K kh, Q shch). Each system with alternatives for its ambiguous letter (Duden's "sch" is ш or ж).
 */
const NATIONAL_TRANSCRIPTIONS: ReadonlyArray<{ marker: RegExp; rules: ReadonlyArray<[RegExp, string | string[] | ((match: string) => string)]> }> = [
  { // German (Duden)
    marker: /sch|w|j|z/,
    rules: [[/schtsch/g, 'Q'], [/tsch/g, 'C'], [/sch/g, ['S', 'Z']], [/ch/g, 'K'], [/j/g, 'y'], [/w/g, 'v'], [/z/g, 'ts'], [/(?<=[aeiou])s(?=[aeiou])/g, 'z'], [/(?<=[aeiou])ss(?=[aeiou])/g, 's'],
      // A word's first s before a vowel is з as often as с ("Sacharowa", "Solotow"), and so is an s between a vowel
      // and a voiced consonant ("Gryslow", "Kusnezowa", "Ramsanow"); x is кс ("Alexej").
      [/^s(?=[aeiouy])/g, ['s', 'z']], [/(?<=[aeiouy])s(?=[bdglmnrv])|(?<=[lmnr])s(?=[aeiouy])/g, ['s', 'z']], [/x/g, 'ks']],
  },
  { // French
    marker: /(?<!s)ch|ou|j|gu[eiy]|ine$|off$|^i[aeo]/,
    rules: [[/chtch/g, 'Q'], [/^i(?=[aeo])|(?<=[aeiou])i(?=[aeo])|iou/g, (m: string) => (m === 'iou' ? 'yu' : 'y')], [/tch/g, 'C'], [/(?<!s)ch/g, 'S'], [/dj/g, 'dZ'], [/j/g, 'Z'], [/ou/g, 'u'], [/gu(?=[eiy])/g, 'g'], [/(?<=[aeiou])ss(?=[aeiou])/g, 's'], [/ine$/g, 'in'], [/off$/g, 'ov']],
  },
  { // Spanish
    marker: /j|gu[eiy]|^i[aeou]/,
    rules: [[/j(?=[aeiou])/g, 'K'], [/gu(?=[eiy])/g, 'g'], [/^i(?=[aeou])/g, 'y']],
  },
  { // Polish
    marker: /sz|cz|rz|w|j|(?<!s)ch|[bdfgklmnprstvwz]i[aeou]/,
    rules: [[/szcz/g, 'Q'], [/sz/g, 'S'], [/cz/g, 'C'], [/rz/g, 'Z'], [/(?<!s)ch/g, 'K'], [/(?<=[bdfgklmnprstvwz])i(?=[aeou])/g, ''], [/j/g, 'y'], [/w/g, 'v'], [/c(?![hz])/g, 'ts']],
  },
  { // Belarusian (BGN/PCGN, passports): ў, the Russian в after a vowel, is written u: -ou/-au/-eu for -ов/-ев
    // ("Kubrakou" for Kubrakov, "Makarau" for Makarov) and -ouski for -овский ("Zimouski"); the vowels differ by
    // akanye, which the key leaves aside. Only at the word's end and before -sk, where French -ou is rare.
    marker: /[aeo]u(?:$|sk)/,
    rules: [[/(?<=[aeo])u(?=$|sk)/g, 'v']],
  },
];
/** NATIONAL_TRANSCRIPTIONS' German system, the only one whose readings take a token with x. */
const GERMAN = 0;
const BGN_DIGRAPHS: Record<string, string> = { Q: 'shch', C: 'ch', S: 'sh', Z: 'zh', K: 'kh' };

/**
 * BGN-like readings of a Latin token as German, French, Spanish or Polish transcription of a Cyrillic name, the
 * token itself excluded; a system reads only a token with a letter group it writes for a Cyrillic sound.
 */
export function nationalTranscriptionReadings(token: string): string[] {
  // None of these systems writes q, and only German press usage writes x (see its rules); a syllable of three
  // letters is more often Chinese ("jun") than Russian.
  if (token.length < 4 || /[q0-9]/.test(token) || !/[aeiouy]/.test(token)) return [];
  // No Russian word starts with кс but Xenia; a first x is Pinyin's ("xiaojun") or another language's.
  if (token[0] === 'x') return [];
  const hasX = token.includes('x');
  const readings = new Set<string>();
  for (const [system, { marker, rules }] of NATIONAL_TRANSCRIPTIONS.entries()) {
    if (!marker.test(token) || (hasX && system !== GERMAN)) continue;
    let forms = [token];
    for (const [pattern, replacement] of rules) {
      forms = forms.flatMap((form) => {
        if (typeof replacement === 'function') return [form.replace(pattern, replacement)];
        if (!Array.isArray(replacement)) return [form.replace(pattern, replacement)];
        const found = form.search(pattern) >= 0;
        return found ? replacement.map((r) => form.replace(pattern, r)) : [form];
      });
    }
    for (const form of forms) readings.add(form.replace(/[QCSZK]/g, (mark) => BGN_DIGRAPHS[mark]));
  }
  readings.delete(token);
  // A Pinyin syllable read as another one is another Chinese syllable, not a Russian name ("cheng" as French is "sheng").
  return isPinyinSyllable(token) ? [...readings].filter((reading) => !isPinyinSyllable(reading)) : [...readings];
}

export interface QueryTokenForm {
  text: string;
  /** Other romanisations when the token was written in Cyrillic. */
  variants: string[];
  /** BGN-like readings when the token may be a German, French, Spanish or Polish transcription of Cyrillic. */
  transcriptions: string[];
}

/**
 * Query tokens (as tokenise) with the other romanisations of those written in Cyrillic; words are tokenised one
 * by one to know their script, and a query whose words do not tokenise like the whole gets no variants.
 */
export function queryTokenForms(raw: string): QueryTokenForm[] {
  const tokens = tokenise(raw);
  if (!CYRILLIC.test(raw)) return tokens.map((text) => ({ text, variants: [], transcriptions: nationalTranscriptionReadings(text) }));
  const tables = nationalTables(raw);
  const byWord = raw.split(/\s+/).flatMap((word) => {
    const own = tokenise(word);
    const cyrillic = CYRILLIC.test(word);
    const readings = cyrillic ? tables.map((table) => tokenise(romaniseWith(table, word))).filter((reading) => reading.length === own.length) : [];
    return own.map((text, i) => ({ text, cyrillic, national: readings.map((reading) => reading[i]) }));
  });
  const aligned = byWord.length === tokens.length && byWord.every((t, i) => t.text === tokens[i]);
  return tokens.map((text, i) => {
    if (!aligned || !byWord[i].cyrillic) return { text, variants: [], transcriptions: [] };
    const variants = romanisationVariants(text);
    const national = byWord[i].national.filter((form, k, all) => form !== text && !variants.includes(form) && all.indexOf(form) === k);
    return { text, variants: [...national, ...variants], transcriptions: [] };
  });
}

/** A Cyrillic letter's Latin form at the start of a word, and elsewhere. */
type CyrillicTable = Map<string, [string, string]>;

function cyrillicTable(letters: Record<string, string | [string, string]>): CyrillicTable {
  return new Map(Object.entries(letters).map(([letter, latin]) => [letter, typeof latin === 'string' ? [latin, latin] : latin]));
}

const COMMON_CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', д: 'd', ж: 'zh', з: 'z', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't',
  у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', ь: '', "'": '', '’': '', ʼ: '',
};
/** Ukrainian: the national romanisation (Cabinet of Ministers resolution 55 of 2010), used in passports. */
const UKRAINIAN = cyrillicTable({
  ...COMMON_CYRILLIC, г: 'h', ґ: 'g', е: 'e', є: ['ye', 'ie'], и: 'y', і: 'i', ї: ['yi', 'i'], й: ['y', 'i'], щ: 'shch', ю: ['yu', 'iu'], я: ['ya', 'ia'],
});
/** Belarusian: the national romanisation as Belarusian passports write it (Aliaksandr, Siarhei, Lukashenka). */
const BELARUSIAN = cyrillicTable({
  ...COMMON_CYRILLIC, г: 'h', е: ['ye', 'e'], ё: ['yo', 'io'], і: 'i', й: ['y', 'i'], ў: 'u', ы: 'y', э: 'e', ю: ['yu', 'iu'], я: ['ya', 'ia'],
});

/**
 * The national tables a Cyrillic name may be read by, whose Latin forms any-ascii's Russian reading misses ("Ігор"
 * → ihor not igor, "Дмитро" → dmytro, "Глэб" → hleb): Ukrainian unless a letter Ukrainian lacks is written (ы, э, ё,
 * ъ), Belarusian unless one Belarusian lacks is (и, щ, ї, є, ґ). A name in letters common to all three ("Олег
 * Моргун") is read all ways, Russian by any-ascii.
 */
function nationalTables(raw: string): CyrillicTable[] {
  const lower = raw.toLowerCase();
  const tables: CyrillicTable[] = [];
  if (!/[ыэёъ]/.test(lower)) tables.push(UKRAINIAN);
  if (!/[ищїєґ]/.test(lower)) tables.push(BELARUSIAN);
  return tables;
}

function romaniseWith(table: CyrillicTable, word: string): string {
  const letters = [...word.toLowerCase()];
  return letters.map((letter, i) => {
    const latin = table.get(letter);
    if (!latin) return letter;
    return i === 0 ? latin[0] : latin[1];
  }).join('');
}

/** A vessel's IMO or MMSI number written into its name: "ARTAVIL (IMO 9187629)", "Sea Rose IMO: 9187629". */
const VESSEL_NUMBER = /\(?\b(?:IMO|MMSI)\b[\s:#.-]*(\d{7,9})\)?/gi;

/** The name without the IMO or MMSI numbers written into it, and those numbers (identifiers, not name words). */
export function splitVesselNumbers(raw: string): { name: string; numbers: string[] } {
  // Every listed name passes here at index build: a name without seven digits in a row is let through unscanned.
  if (!/\d{7}/.test(raw)) return { name: raw, numbers: [] };
  const numbers = [...raw.matchAll(VESSEL_NUMBER)].map((match) => match[1]);
  if (!numbers.length) return { name: raw, numbers };
  const name = raw.replace(VESSEL_NUMBER, ' ').replace(/\s+/g, ' ').trim();
  return name ? { name, numbers } : { name: raw, numbers };
}

const CLOSING_PARENTHETICAL = /^(.*\S)\s*\(([^()]*)\)\s*$/;

/**
 * Whether a word may be the name's acronym: two to six letters found in the name in order, the first the first
 * letter of its first (or first strong) word ("IMU", "KOMID"; not a country's "(UK)" after "Sovcomflot").
 */
function isAcronymOf(word: string, name: string): boolean {
  if (!/^[A-Za-z]{2,6}$/.test(word)) return false;
  const acronym = word.toLowerCase();
  const words = normaliseText(name).split(' ');
  if (acronym[0] !== words[0]?.[0] && acronym[0] !== words.find((part) => !isWeakToken(part))?.[0]) return false;
  let found = 0;
  for (const letter of words.join('')) if (letter === acronym[found]) found++;
  return found >= acronym.length;
}

/** What a vessel is, said after its name ("Stena Impero (tanker)", "Wise Honest (bulk carrier)"). */
const VESSEL_KINDS = new Set(['tanker', 'vessel', 'ship', 'carrier', 'trawler', 'tug', 'yacht', 'ferry']);

/**
 * The name without a parenthetical that closes it, undefined when none does or when the parenthetical may tell
 * the name from another: only the name's acronym or a code ("... (IMU)", "Lazarus Group (APT38)"), a rank
 * ("... (Senior General)") or what a vessel is ("... (oil tanker)") is left out. A word ("Wagner (Opera House)",
 * "Al Noor (Exchange)") stays, or the name alone would be screened.
 */
export function withoutClosingParenthetical(raw: string): string | undefined {
  const match = CLOSING_PARENTHETICAL.exec(raw);
  if (!match) return undefined;
  const inside = match[2].trim();
  const words = normaliseText(inside).split(' ').filter(Boolean);
  const describes = /^[A-Za-z]+\d+$/.test(inside) || isAcronymOf(inside, match[1])
    || (words.length > 0 && words.every((word) => HONORIFICS.has(word) || word === 'senior'))
    || VESSEL_KINDS.has(words[words.length - 1]);
  return describes ? match[1] : undefined;
}

/** A vessel's closing Roman numeral one ("GRACE I"), which tokenising keeps as a letter since one letter is more often an initial. */
const CLOSING_NUMERAL_ONE = /^(.*[A-Za-z]{2}.*?)\s+I\.?$/;

/** The name with a closing Roman numeral one written as a digit ("Grace I" → "Grace 1"), undefined when it has none. */
export function withClosingNumeralOne(raw: string): string | undefined {
  if (!/I\.?\s*$/.test(raw)) return undefined;
  const match = CLOSING_NUMERAL_ONE.exec(raw.trim());
  return match ? `${match[1]} 1` : undefined;
}

/** What a vessel is, said after its name without brackets ("SANDINO tanker", "FU YUAN YU 7883 fishing vessel"). */
const CLOSING_VESSEL_KIND = /^(.*?[A-Za-z0-9])\s+(?:(?:oil|crude|fishing|cargo)\s+)?(?:tanker|vessel)\s*$/i;

/** The name without what a vessel is said after it, undefined when nothing is said. */
export function withoutClosingVesselKind(raw: string): string | undefined {
  return CLOSING_VESSEL_KIND.exec(raw.trim())?.[1];
}

/**
 * A name compounded with al-Din ("of the faith") written as one word, as French, Lebanese and South Asian spellings
 * do, its article assimilated: Safieddine, Nureddin, Salaheddine, Jalaluddin, Moinuddin, Ziauddin.
 */
const AL_DIN_JOINED = /^([a-z]{3,}?)(?:eddine|eddin|uddin|uddeen|addin|aldin|uldin|eldin|iddin)$/;

/** The name with such a word written apart, "stem al din" as the lists write it ("Safi al-Din"), undefined when it has none. */
export function withAlDinApart(raw: string): string | undefined {
  const words = normaliseText(raw).split(' ');
  let changed = false;
  const apart = words.map((word) => {
    const match = AL_DIN_JOINED.exec(word);
    if (!match) return word;
    changed = true;
    return `${match[1]} al din`;
  });
  return changed ? apart.join(' ') : undefined;
}

/**
 * Words of Russian and Soviet ships' names (a rank, trade or calling before a person's name: "Kapitan Beklemishev",
 * "Kompozitor Gasanov", "Akademik Lomonosov") as English writes them, to the transliteration the lists use.
 */
const SHIP_NAME_WORDS = new Map([
  ['captain', 'kapitan'], ['composer', 'kompozitor'], ['academician', 'akademik'], ['academic', 'akademik'],
  ['engineer', 'inzhener'], ['navigator', 'shturman'], ['cosmonaut', 'kosmonavt'], ['hero', 'geroy'], ['writer', 'pisatel'],
]);
/**
 * A navy's prefix before a warship's name (IRIS: Islamic Republic of Iran Ship; HMS, USS, INS, HMAS, HMCS, HMNZS, ROKS,
 * PNS, KRI, TCG, BNS, SLNS), written in capitals: the ship is named without it as often as with it.
 */
const NAVY_PREFIX = /^(?:IRIS|HMS|USS|INS|HMAS|HMCS|HMNZS|ROKS|PNS|KRI|TCG|BNS|SLNS)\s+(?=\S)/;

/**
 * A vessel's name in one writing of its words, or undefined when it has nothing to rewrite: a Russian ship's
 * calling word in the lists' transliteration ("Captain Beklemishev" → "kapitan beklemishev"), a Latin or Greek
 * word's au/eu before a consonant as Russian writes it, av/ev ("Aurora" → "avrora", "Europa" → "evropa"), and a
 * navy's prefix left out ("IRIS DENA" → "DENA"). Read on the listed and the query side, so either spelling meets.
 */
export function vesselNameReading(raw: string): string | undefined {
  const unprefixed = raw.trim().replace(NAVY_PREFIX, '');
  const words = unprefixed.split(/\s+/).map((word) => {
    const plain = normaliseText(word);
    const russian = SHIP_NAME_WORDS.get(plain);
    if (russian) return russian;
    return /^[ae]u[^aeiou\s]/.test(plain) && /^[a-z]+$/.test(plain) ? plain.replace(/^([ae])u/, '$1v') : word;
  });
  const reading = words.join(' ');
  return reading === raw.trim() || words.length === 0 ? undefined : reading;
}

/**
 * A vessel named after what it is and whose it is ("Iranian frigate Dena", "the tanker Grace 1", "oil tanker
 * Sabiti", "Russian cargo ship Ursa Major"): the name alone, or undefined when it opens otherwise.
 */
const LEADING_VESSEL_KIND = /^(?:the\s+)?(?:[A-Z][a-z]+(?:an|ese|ish|i)\s+)?(?:(?:oil|crude|cargo|container|fishing|research|naval|bulk)\s+)?(?:frigate|corvette|destroyer|warship|submarine|tanker|ship|vessel|freighter|trawler|yacht|superyacht|carrier)\s+(?=\S)/i;

export function withoutLeadingVesselKind(raw: string): string | undefined {
  const trimmed = raw.trim();
  const rest = trimmed.replace(LEADING_VESSEL_KIND, '');
  return rest === trimmed || !/[A-Za-z0-9]/.test(rest) ? undefined : rest;
}

/** The longest word read as one syllable of a vessel's name (Pinyin "zhuang", Korean "chyong"). */
const VESSEL_SYLLABLE_LENGTH = 6;

/**
 * A vessel's name of short syllables written as one word, its number kept apart ("AM NOK GANG" → "amnokgang",
 * "Fu Yuan Yu No. 7883" → "fuyuanyu 7883"): Korean and Chinese ship names are written joined as often as split.
 * Undefined unless the name is at least `fewest` such syllables in a row, a prefix (MV, F/V) and a number aside.
 */
export function withVesselSyllablesJoined(raw: string, fewest = 2): string | undefined {
  const words = tokenise(raw);
  while (words.length && isWeakToken(words[0])) words.shift();
  if (words.some(isWeakToken)) return undefined;
  const syllables = words.filter((word) => /^[a-z]+$/.test(word));
  if (syllables.length < fewest || syllables.some((word) => word.length > VESSEL_SYLLABLE_LENGTH)) return undefined;
  const numbers = words.filter((word) => !/^[a-z]+$/.test(word));
  if (words.slice(0, syllables.length).join(' ') !== syllables.join(' ')) return undefined;
  return [syllables.join(''), ...numbers].join(' ');
}

/**
 * Indexable forms of a listed name: a parenthetical ("ACME LTD (AL)", "SAMMY (IHSAN MEDHAT) ELASHI") gives
 * both the name without it and with it inlined; UN entity names joined with " ; " are split.
 */
export function nameVariants(full: string): string[] {
  const variants = new Set<string>();
  for (const part of full.split(/\s+;\s+/)) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    if (trimmed.includes('(')) {
      variants.add(trimmed.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim());
      variants.add(trimmed.replace(/[()]/g, ' ').replace(/\s+/g, ' ').trim());
    } else {
      variants.add(trimmed);
    }
  }
  return [...variants].filter(Boolean);
}

/**
 * Wade-Giles initials and their Pinyin, from the Wade-Giles/Pinyin table: aspirated ones written with an
 * apostrophe; without it an initial is read unaspirated first, then aspirated, since most writers (and every list
 * once tokenised) leave the apostrophe out ("Chin-ping" is Jinping or Qinping, "Chin-tao" Jintao). "ch" before u is
 * zh, or j for ü written u.
 */
const WADE_GILES_INITIALS: Array<[RegExp, string[]]> = [
  [/^ch'(?=[iü])/, ['q']], [/^ch'(?=u)/, ['ch', 'q']], [/^ch'/, ['ch']], [/^t[sz]'/, ['c']], [/^k'/, ['k']], [/^p'/, ['p']], [/^t'/, ['t']],
  [/^hs/, ['x']], [/^ch(?=[iü])/, ['j', 'q']], [/^ch(?=u)/, ['zh', 'j', 'ch', 'q']], [/^ch/, ['zh', 'ch']], [/^t[sz]/, ['z', 'c']], [/^j/, ['r']],
  [/^k/, ['g', 'k']], [/^p/, ['b', 'p']], [/^t/, ['d', 't']],
];
const WADE_GILES_FINALS: Array<[RegExp, string]> = [
  // The apical vowel: "tzu" is zi, "tz'u" ci; after sh, ch and j Wade-Giles writes it -ih ("shih", "chih", "jih").
  [/ung$/, 'ong'], [/ieh$/, 'ie'], [/ien$/, 'ian'], [/ueh$/, 'ue'], [/ih$/, 'i'], [/(?<=^[gkh])o$/, 'e'], [/(?<=^[zc])u$/, 'i'],
];
/** A syllable as Wade-Giles writes it: an optional initial, a final, nothing else. */
const WADE_GILES_SYLLABLE = /^(?:(?:ch|ts|tz|[kpt])'?|hs|sh|[fhjlmnswy])?[aeiouü]{1,3}(?:n|ng|h)?$/;
/** The Pinyin readings of one Wade-Giles syllable, the likeliest first. */
function pinyinSyllables(syllable: string): string[] {
  const initial = WADE_GILES_INITIALS.find(([pattern]) => pattern.test(syllable));
  const readings = initial ? initial[1].map((pinyin) => syllable.replace(initial[0], pinyin)) : [syllable];
  return readings.map((reading) => WADE_GILES_FINALS.reduce((pinyin, [pattern, replacement]) => pinyin.replace(pattern, replacement), reading));
}

/**
 * The Pinyin readings of one syllable of a listed Chinese name written in Wade-Giles ("hsiang" → xiang; "ping" →
 * bing, ping) other than itself, as tokenise writes them ("hsi" → xi, which reads as the numeral 11).
 */
export function wadeGilesSyllableReadings(syllable: string): string[] {
  if (!WADE_GILES_SYLLABLE.test(syllable)) return [];
  return pinyinSyllables(syllable).filter((pinyin) => pinyin !== syllable).map((pinyin) => foldLegalFormsAndNumbers([pinyin])[0]);
}

/**
 * The Pinyin reading of a Chinese name written in Wade-Giles, each syllable read the likeliest way ("Mao Tse-tung" →
 * "mao zedong", "Hsi Chin-p'ing" → "xi jinping", "Teng Hsiao-p'ing" → "deng xiaoping", "Hu Chin-tao" → "hu
 * jindao"), or undefined when the name does not look like one: it must have a hyphenated given name of syllables or a
 * syllable only Wade-Giles writes (hs-, ts-, tz-, -ieh, -ih), and at most three words. One reading only: a query is
 * searched in it with the scorer's full leeway, and searching every reading (eight for two syllables without
 * apostrophes) made unlisted names meet unrelated listed ones ("Chen Chia-te" read "chen qiate" met "Cathy Chen");
 * a listed syllable is indexed under all its readings instead (wadeGilesSyllableReadings).
 */
export function pinyinReading(raw: string): string | undefined {
  const words = anyAscii(raw.normalize('NFKC')).toLowerCase().replace(/[`’‘ʼ]/g, "'").split(/[\s,]+/).filter(Boolean);
  if (words.length < 2 || words.length > 3) return undefined;
  const syllables = words.map((word) => word.split('-'));
  if (!syllables.every((parts) => parts.length <= 2 && parts.every((part) => WADE_GILES_SYLLABLE.test(part)))) return undefined;
  const wadeGiles = syllables.some((parts) => parts.length === 2) || syllables.flat().some((part) => /^(hs|ts|tz)|ieh$|[^s]ih$/.test(part));
  if (!wadeGiles) return undefined;
  const reading = syllables.map((parts) => parts.map((part) => pinyinSyllables(part)[0]).join('')).join(' ');
  return reading === words.join(' ').replace(/['-]/g, '') ? undefined : reading;
}
