// The screening index: an inverted index from name tokens (exact, phonetic key, character trigrams, joined
// neighbours) to listed names, and the name scorer that aligns query tokens with a listed name's tokens.
// Memory stays lean: names are flat typed arrays of token ids; strings live once in the vocabulary.

import { doubleMetaphone } from 'double-metaphone';
import {
  isListedKindWord, isWeakToken, nameVariants, nationalTranscriptionReadings, pinyinReading, queryTokenForms, splitVesselNumbers, tokenise, wadeGilesSyllableReadings, withClosingNumeralOne, withoutClosingParenthetical, withoutClosingVesselKind, withoutLeadingTitle, isNameTitle, namesWrittenTogether, normaliseText, withAlDinApart, withoutLeadingVesselKind, withVesselSyllablesJoined, vesselNameReading,
} from './normalize.ts';
import { arabicRespellings, equivalentGivenNames, equivalentPatronymics, isPatronymic, isShortFormPair, saidAgainstSayyid } from './given-names.ts';
import {
  KOREAN_SYLLABLE_LENGTH, TRANSLITERATION_SIMILARITY, VOWEL, allowedEdits, joinedSimilarity, koreanKey, sameFoldedSpelling, tokenSimilarity, transliterationKey,
  isPinyinSyllable, transliterationSimilarity,
} from './similarity.ts';
import { AIRLINE_WORD_FOLDED, LEGAL_FORM_WORDS, withAirlineWordFolded } from './legal-forms.ts';
import { COMMON_FAMILY, COMMON_GIVEN } from './common-names.ts';
import { knownOrganisationAliases, withLeadingNameReplaced } from './organisation-aliases.ts';
import { withShortCountryNames, withoutClosingCountry, withoutPlaceName } from './places.ts';
import { withKindWordsInEnglish } from './kind-word-translations.ts';
import type { ListEntity, NameKind } from './model.ts';

const NAME_KINDS: NameKind[] = ['primary', 'alias', 'weak_alias', 'former'];
const WEAK_ALIAS = NAME_KINDS.indexOf('weak_alias');

/** Weight of a legal form or particle ("ltd", "al", "de"): present, but never decisive. */
const WEAK_TOKEN_WEIGHT = 0.5;
/** A name whose only matching token is one of several gets this factor: "Smith" is not "John Smith". */
const SINGLE_TOKEN_FACTOR = 0.8;
/** A weak alias (nickname, kunya, short acronym) counts only when equal to the query, at this score. */
export const WEAK_ALIAS_EXACT_SCORE = 0.75;
/** Joined neighbours ("abdul rahman" ~ "abdulrahman") must be this close to pair up. */
const JOINED_FLOOR = 0.85;
/**
 * A person's middle names and patronymics ("ZHUKOV, Aleksandr Arkadyevich") are often left out by whoever types
 * the name (the press writes "Dmitry Kuznetsov" for "KUZNETSOV, Dmitry Vadimovich"), so they weigh this share of
 * their rarity weight. Chosen on the train and dev splits of `npm run eval:aml` (0.75 lost 11 % of initials and
 * compound-name positives for no fewer false alarms).
 */
const MIDDLE_NAME_WEIGHT = 0.5;
/**
 * An ancestor's name in an Arabic name chain ("Usama bin Muhammad bin Awad BIN LADIN": Muhammad, Awad) and a
 * second family name ("MADURO MOROS, Nicolas": Moros) are left out even more often than a middle name.
 */
const MINOR_NAME_WEIGHT = 0.35;
/**
 * Share of the weight difference a second family name standing in for a missing first one ("Ismael Felix" for
 * "REYNA FELIX, Ismael") moves over: all of it made "Diego Romero" find "AYALA ROMERO, Diego" on the train split.
 */
const STAND_IN_SHARE = 0.5;
/** Share of its rarity weight a listed token keeps, by OptionalPart. */
const OPTIONAL_WEIGHT = [1, MIDDLE_NAME_WEIGHT, MINOR_NAME_WEIGHT, MINOR_NAME_WEIGHT];
const enum OptionalPart { No = 0, Middle = 1, Minor = 2, SecondFamily = 3 }
/**
 * Share of its rarity weight a query's middle name, patronymic, ancestor or second family name keeps when the
 * listed name lacks it: more than a listed one's, since lists write names in full and a part they lack may tell
 * another person ("Mohammed Abdul Latif Jameel" is not "Muhammad Jamal").
 */
const EXTRA_OPTIONAL_WEIGHT = OPTIONAL_WEIGHT.map((share) => (1 + share) / 2);
/**
 * A listed family or first name the query lacks counts this share of its rarity weight once more against the
 * name ("Mateo Diaz" may be another Diaz than "DIAZ LOPEZ, Mateo"); so does, for an organisation, a distinctive
 * query word the listed name lacks.
 */
const MISSING_CORE_PENALTY = 0.5;
/** A token equal to a listed one in another romanisation of its Cyrillic spelling ("khusayn" ~ "husain"). */
const ROMANISATION_SIMILARITY = 0.95;
/** A patronymic paired with the same one formed from another form of the father's name: see given-names.ts. */
const EQUIVALENT_NAME_SIMILARITY = 0.9;
/**
 * A given name paired with a short form of it ("bob" ~ "robert"): a nickname its bearer may or may not go by, so
 * less than the name itself. The name in another language or romanisation
 * ("yevhen" ~ "yevgeniy", "peter" ~ "pyotr") pairs at ROMANISATION_SIMILARITY: see given-names.ts.
 */
const SHORT_FORM_SIMILARITY = 0.85;
/** A syllable of a Korean name in another romanisation ("choi" ~ "choe", "park" ~ "pak"): see koreanKey. */
const KOREAN_ROMANISATION_SIMILARITY = 0.9;
/** An initial ("V.") paired with a name part of that letter ("vladimir"). */
const INITIAL_SIMILARITY = 0.9;
/**
 * Weight of an initial in the query: one letter tells little, about as much as a given name shared by a thousand
 * listed names, whatever the rarity of the one-letter token in the lists.
 */
const INITIAL_SHARE = 1000;
/** Particles of Arabic name chains whose neighbours' order says who is whose son or daughter. */
const CHAIN_PARTICLES = new Set(['bin', 'ibn', 'bint', 'ben', 'ould']);
/**
 * Left-out middle names, patronymics and ancestors of a person that count against a name; the rest do not. One,
 * chosen on the train and dev splits (two left press recall at 0.97, one lifts it to 0.99 for no more false alarms).
 */
const MISSING_OPTIONAL_COUNTED = 1;
/** Longest name part read as one syllable of a Chinese, Korean or Vietnamese name ("zhao", "jong"). */
const SYLLABLE_LENGTH = 4;
/** An organisation needs one word paired at least this close in spelling (a typo, not only a sound-alike). */
const ORGANISATION_SPELLING_FLOOR = 0.9;
/**
 * A person named by the given names after a common first one (see knownByLaterNames) scores this: found at the
 * default threshold, but below a name given in full.
 */
const KNOWN_AS_SCORE = 0.85;
/** Each of those given names must pair this closely (a respelling, not a sound-alike). */
const KNOWN_AS_SIMILARITY = 0.9;
/** A pair below this similarity is by sound or short form only, not by spelling (PHONETIC_SIMILARITY is 0.88). */
const SOUND_ALIKE_BELOW = 0.9;
/**
 * A listed spelling used by at most this many listed names is one person's way of writing a name (AMIDI, TANAVAR,
 * RAHMUN), not a romanisation in common use (Daud: 9 names, Mahamat: 8, Saeed: 21 on the lists loaded here).
 */
const ONE_OFF_SPELLING_NAMES = 2;
/** Parts paired in another spelling that, with an ancestor of a chain skipped (see ancestorSkipped), damp a match. */
const SKIPPED_ANCESTOR_RESPELT = 2;
/**
 * Rarity weight over its spellings (spellingWeight) at most of a common name part (Muhammad in all its spellings
 * 3.0, Ahmad 4.1, Ali 4.2 on the lists loaded here: shared by more than one listed name in 150), and at least of a
 * distinctive one (Masood 7.6, Azhar 8.1: shared by fewer than one in 400).
 */
const COMMON_WEIGHT = 5;
const DISTINCTIVE_WEIGHT = 6;
/** Longest organisation's word that must be spelt as listed when it is the only distinctive word paired. */
const SHORT_BRAND_LENGTH = 6;
/** Factor on an organisation's score when a query word stands where a listed word is missing (see scoreName). */
const SUBSTITUTION_FACTOR = 0.9;
/** Names scored in full per query, best first by their index evidence. */
const MAX_CANDIDATES = 120;
/** An organisation named by another of its well-known names (organisation-aliases.ts): "FSB" for FEDERAL SECURITY SERVICE. */
const KNOWN_ALIAS_SIMILARITY = 0.95;
/** An organisation's name with the place it opens with (see withoutPlaceName) or its country left out. */
const PLACE_LEFT_OUT_SIMILARITY = 0.9;
/**
 * An organisation's name read with its romanised kind words in English (see withKindWordsInEnglish) or with a
 * country's formal name in its short form (see withShortCountryNames), query or listed: a reading, not the name as
 * written ("Central Election Commission of the River of Belarus" read against the listed "... of Belarus" without
 * "Republic" would score as if no word were replaced).
 */
const READ_IN_OTHER_WORDS_SIMILARITY = 0.95;
/**
 * Spelling weight of a word that at most a dozen or so listed names hold: an industry's words ("petroleum",
 * "foreign", "chemical", "digital") are held by more, however rare they are next to persons' names.
 */
const BRAND_WEIGHT = 7.5;
/**
 * How closely the other name must meet a listed one: a known alias lends its certainty only to that listed name, not
 * to a respelt neighbour of it (at 0.9 "Hamas" lent Hamas's certainty to HASM, "Bank of Russia" to BANK ROSSIYA).
 */
const KNOWN_ALIAS_FLOOR = 0.96;
/** Share of the query's token weight a name must show in the index before it is scored in full. */
const MIN_EVIDENCE = 0.3;

export interface ScreeningIndex {
  entities: ListEntity[];
  vocabulary: Map<string, number>;
  tokens: string[];
  phoneticOf: string[];
  weight: Float32Array;
  /** A query's weight of a token weak only in listed names (isListedKindWord): its rarity, as any word's. */
  queryWeight: Map<number, number>;
  /** Rarity weight of a token over all spellings sharing its transliteration key (Muhammad, Mohammed, Mohamad…). */
  spellingWeight: Float32Array;
  /**
   * 1 for a token that is a common name part: common on the lists (spellingWeight at most COMMON_WEIGHT) or among
   * people at large (common-names.ts, in any of its spellings or short forms).
   */
  common: Uint8Array;
  byPhonetic: Map<string, number[]>;
  byTrigram: Map<string, number[]>;
  byJoined: Map<string, number[]>;
  /**
   * Transliteration key of a person's hyphen-joined name written as one word ("Ahmadi-Nejad" → ahmadinejad) → ids
   * of those names: the compound written together in another romanisation ("Ahmadinezhad").
   */
  byHyphenatedKey: Map<string, number[]>;
  /** Initials of an organisation's name (see acronymsOf) → ids of those names. */
  byAcronym: Map<string, number[]>;
  /** Three initials of an organisation's name (see shortAcronymsOf) → ids of those names, when the lists attest them. */
  byShortAcronym: Map<string, number[]>;
  /**
   * "acronym source" of each three-letter acronym the lists attest for an organisation's distinctive words (see
   * acronymSource) → the organisations listed under that acronym alone that are the body attesting it: they share
   * another listed name with it (the same body on another list).
   */
  attestedShortAcronyms: Map<string, Set<number>>;
  /** Korean key (see koreanKey) → ids of the syllables of Korean persons' names, or of two written together. */
  byKoreanSyllable: Map<string, number[]>;
  /** Id of such a part → its Korean key. */
  koreanKeyOf: Map<number, string>;
  /** Names of Korean persons. */
  koreanNames: Set<number>;
  /** A vessel's name with its syllables written as one word (see withVesselSyllablesJoined). */
  syllablesJoinedNames: Set<number>;
  /** An organisation's name without the Chinese province or city it opens with (see withoutPlaceName). */
  placeLeftOutNames: Set<number>;
  /** An organisation's name without the country it closes with, when that country is the body's (see withoutClosingCountry). */
  countryLeftOutNames: Set<number>;
  /** An organisation's name with its romanised kind words in English (see withKindWordsInEnglish). */
  translatedNames: Set<number>;
  /** An organisation's name with countries' formal names in their short form (see withShortCountryNames). */
  shortCountryNames: Set<number>;
  /** Ids of persons' names read without the title their given names open with (see withoutListedTitle). */
  titleLeftOutNames: Set<number>;
  /**
   * Ids of persons' names read with a joined al-Din name apart (see withAlDinApart): its parts' rarity is the split
   * words', so such a reading never makes a name known by its later given names ("Sirajuddin" read "siraj al din").
   */
  alDinApartNames: Set<number>;
  /** Pinyin → ids of the Wade-Giles syllables of listed Chinese names that read so ("xiang" → hsiang). */
  byPinyin: Map<string, number[]>;
  /** Id of such a Wade-Giles syllable → its Pinyin readings. */
  pinyinOf: Map<number, string[]>;
  /** Transliteration key (see transliterationKey) → vocabulary token ids. */
  byTransliteration: Map<string, number[]>;
  /**
   * Transliteration key of a BGN-like reading of a name part of a person who may be from a Cyrillic-writing country
   * (see mayBeTranscribedFromCyrillic), written in German, French or Polish
   * transcription of Cyrillic ("Chodorkowski" → khodorkovski, "Prigoschin" → prigozhin) → ids of those parts.
   */
  byTranscribedKey: Map<string, number[]>;
  /** Id of such a name part → its readings (see nationalTranscriptionReadings). */
  transcribedReadings: Map<number, string[]>;
  postingStart: Uint32Array;
  postings: Uint32Array;
  nameEntity: Uint32Array;
  nameSlot: Uint16Array;
  nameKind: Uint8Array;
  nameTokenStart: Uint32Array;
  nameTokens: Uint32Array;
  /** Parallel to nameTokens: an OptionalPart, whether a person's middle name, patronymic, ancestor or second family name. */
  nameTokenMiddle: Uint8Array;
  /** Parallel to nameTokens: position of the token in the name as it is said ("PUTIN, Vladimir" → 1, 0). */
  nameTokenOrder: Uint8Array;
  /**
   * Names of persons ending in a nisba (see nisbaAfterGivenNames): name id → position of the nisba and of the given names that
   * may stand in for it (the second and the last, "Saddam Hussein" and "Uday Hussein" for "UDAY SADDAM HUSSEIN …").
   */
  nameNisba: Map<number, { nisba: number; standIns: number[] }>;
  /** Listed names written in Chinese, Japanese or Korean script: name id → those characters. */
  nameCjk: Map<number, string>;
  /**
   * A person's names beside which another of the person's names, sharing a given or family name with it, gives more
   * middle names, patronymics, ancestors and second family names. Such a shorter name is not free to take a query's
   * other parts ("Timur Rashidovich Ivanov" is not "IVANOV, Timur Vadimovich"'s alias "Timur Ivanov").
   */
  namesWithFullerNameBeside: Set<number>;
  nameWeight: Float32Array;
  byIdentifier: Map<string, number[]>;
}

function trigrams(token: string): string[] {
  const padded = `^${token}$`;
  const grams: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(padded.slice(i, i + 3));
  return grams;
}

function pushTo<K, V = number>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

/** Identifier values compared without spaces, dashes or case; short values are too ambiguous to be decisive. */
export function identifierKey(value: string): string | undefined {
  // "IMO 7406784" and "7406784" are the same vessel number.
  const key = value.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^(IMO|MMSI)(?=\d)/, '');
  return key.length >= 5 ? key : undefined;
}

export interface ListedNameParts {
  parts: string[];
  /** Parts a query may leave out at little cost: a person's middle names, patronymics, second family names. */
  middle: boolean[];
  /** Position of each part in the name as it is said: given names before family names. */
  order: number[];
  /** Family names after the first distinctive one (also middle). */
  secondFamily: boolean[];
  /** A person's family name that is a nisba after two given names ("AL-TIKRITI, Saddam Hussein"): see nisbaAfterGivenNames. */
  nisba: boolean[];
}

/**
 * Whether a person's family name ("al-Tikriti", "al-Majid": of Tikrit, of the Majid clan) follows at least two
 * distinctive given names: the press may write such a person by the given names alone ("Saddam Hussein" for
 * "SADDAM HUSSEIN AL-TIKRITI"), the second one then standing in for the family name (see nisbaStandIn). One given
 * name ("AL-ASSAD, Bashar"), or one and initials, keep their family name.
 */
function nisbaAfterGivenNames(family: string[], given: string[]): boolean {
  return family.length === 2 && (family[0] === 'al' || family[0] === 'el') && given.filter((part) => !isWeakToken(part) && part.length > 1).length >= 2;
}

/** One syllable of a Chinese or Korean name ("cheol", "thaek", "bian"): a hyphen between two is a given name's. */
const EAST_ASIAN_SYLLABLE = /^[^aeiouy]*[aeiouy]+(?:ng|[nlkmprt])?$/;
/**
 * One syllable of a Korean name as McCune-Reischauer, Revised Romanization or habit write it: one vowel, a
 * diphthong (ae, eo, eu, oe, ui; oo, ee, ou) or a glide before one, so "jaein" is two ("jae-in") where
 * EAST_ASIAN_SYLLABLE sees one.
 */
const KOREAN_SYLLABLE_SHAPE = '[^aeiouwy]*[wy]?(?:ae|eo|eu|oe|ui|oo|ee|ou|[aeiou])(?:ng|[nlkmpt])?';
const KOREAN_SYLLABLE = new RegExp(`^${KOREAN_SYLLABLE_SHAPE}$`);
/** One such syllable or two written together ("jongun", "myungbak", "jaein"). */
const ONE_OR_TWO_KOREAN_SYLLABLES = new RegExp(`^(?:${KOREAN_SYLLABLE_SHAPE}){1,2}$`);

/**
 * Whether the last word of a person's name written in order is a double-barrelled family name ("JOHN B.
 * PRIDMORE-SMITH"): two distinctive parts, not both syllables of an East Asian given name ("Kim Young-Cheol").
 */
function isDoubleBarrelled(word: string): boolean {
  const parts = word.split('-');
  if (parts.length !== 2) return false;
  const tokens = parts.map((part) => tokenise(part));
  if (!tokens.every((t) => t.length === 1 && t[0].length >= 3 && !isWeakToken(t[0]))) return false;
  return !tokens.every(([t]) => EAST_ASIAN_SYLLABLE.test(t));
}

/**
 * Whether a person's name said in order opens with a Western given name before a Chinese one ending in a hyphenated
 * given name ("Chris Tang Ping-keung", "Carrie Lam Cheng Yuet-ngor"): the press of Hong Kong writes the name with or
 * without the Western name, so it is a given name that may be left out, not the first name.
 */
function opensWithWesternGivenName(words: string[]): boolean {
  const given = words[words.length - 1].split('-');
  const syllables = (word: string) => tokenise(word).every((token) => EAST_ASIAN_SYLLABLE.test(token));
  return given.length === 2 && given.every(syllables) && syllables(words[words.length - 2]) && !syllables(words[0]);
}

/** Shortest joined compound looked up by its transliteration key: shorter ones are two short names ("Li-Na"). */
const MIN_HYPHENATED = 8;

/**
 * Whether two name parts may be one compound name in another romanisation: not two East Asian syllables, whose
 * romanisations differ by vowels that make another name ("chen ping" is not "chunpeng").
 */
function isCompound(first: string, second: string): boolean {
  return !(EAST_ASIAN_SYLLABLE.test(first) && EAST_ASIAN_SYLLABLE.test(second));
}

/** The words of a name joined by a hyphen, written as one token ("Ahmadi-Nejad" → ahmadinejad), East Asian syllables aside. */
function hyphenatedWords(variant: string): string[] {
  return variant.split(/[\s,]+/).filter(isDoubleBarrelled)
    .map((word) => tokenise(word.replace('-', '')).join('')).filter((joined) => joined.length >= MIN_HYPHENATED);
}

/**
 * Tokens of a listed name and which of them are a person's middle names: in "FAMILY NAMES, First Middle…" the
 * given names after the first and the family names after the first distinctive one (the maternal or married
 * name of "MADURO MOROS, Nicolas" or "MURILLO DE ORTEGA, Rosario", which the press leaves out); without a comma,
 * the tokens between the first and the last, a double-barrelled last word read as "FAMILY, Given…".
 */
export function listedNameParts(variant: string, isPerson: boolean): ListedNameParts {
  const comma = variant.indexOf(',');
  const words = variant.trim().split(/\s+/);
  const last = words[words.length - 1];
  if (isPerson && comma < 0 && words.length >= 2 && isDoubleBarrelled(last)) return listedNameParts(`${last}, ${words.slice(0, -1).join(' ')}`, true);
  if (!isPerson || comma < 0) {
    const parts = tokenise(variant);
    const last = parts.length - 1;
    const nisba = isPerson && last >= 1 && nisbaAfterGivenNames(parts.slice(last - 1), parts.slice(0, last - 1));
    const westernNameFirst = isPerson && words.length >= 3 && opensWithWesternGivenName(words);
    return {
      parts, middle: parts.map((_, i) => isPerson && (i > 0 || westernNameFirst) && i < last), order: parts.map((_, i) => i), secondFamily: parts.map(() => false),
      nisba: parts.map((_, i) => nisba && i === last),
    };
  }
  const family = tokenise(variant.slice(0, comma));
  const given = tokenise(variant.slice(comma + 1));
  const firstDistinctive = family.findIndex((part) => !isWeakToken(part));
  const secondFamily = family.map((_, i) => firstDistinctive >= 0 && i > firstDistinctive);
  const nisba = nisbaAfterGivenNames(family, given);
  return {
    parts: [...family, ...given],
    middle: [...secondFamily, ...given.map((_, i) => i > 0)],
    order: [...family.map((_, i) => given.length + i), ...given.map((_, i) => i)],
    secondFamily: [...secondFamily, ...given.map(() => false)],
    nisba: [...family.map((_, i) => nisba && i === 1), ...given.map(() => false)],
  };
}

const CJK_CHARACTERS = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;

function cjkCharacters(text: string): string {
  return (text.match(CJK_CHARACTERS) ?? []).join('');
}

/** Words an acronym skips ("Islamic State of Iraq and the Levant" → ISIL). */
const ACRONYM_SKIPS = new Set([
  'of', 'the', 'and', 'in', 'for', 'on', 'at', 'to', 'de', 'del', 'la', 'le', 'les', 'los', 'las', 'du', 'des', 'y', 'e',
  'et', 'und', 'di', 'da', 'do', 'dos', 'das', 'van', 'von', 'der', 'den',
]);
/**
 * Acronyms this long are read: three capitals spell the initials of some listed organisation one time in a few
 * dozen (0.85 for "PGM", "LRB" on the train split), eleven are a word.
 */
const MIN_ACRONYM = 4;
const MAX_ACRONYM = 10;

/** Linking words a Spanish or Portuguese acronym keeps ("Petróleos de Venezuela, S.A." → PDVSA). */
const IBERIAN_LINKING_WORDS = new Set(['de', 'del', 'la', 'los', 'las', 'y', 'e', 'da', 'do', 'dos', 'das']);

/**
 * Acronyms an organisation's name may go by: the initials of its words without linking words, and also without
 * legal forms and articles ("ISLAMIC REVOLUTIONARY GUARD CORPS" → irgc; "NATIONAL IRANIAN OIL COMPANY" → nioc, nio;
 * "ISLAMIC STATE OF IRAQ AND AL-SHAM" → isias, isis); and the Spanish and Portuguese habit of keeping the linking
 * words and writing a closing S.A. whole ("PETROLEOS DE VENEZUELA, S.A." → pdvsa). Only that habit: an English
 * "THE PLANAR COMPANY" is not TPCO (Tianjin Pipe Corporation), nor a Mexican "S.A. DE C.V." ...sdcv.
 */
export function acronymsOf(parts: string[]): string[] {
  const namedAfter = namedAfterAt(parts);
  if (namedAfter > 0) {
    // The body's own words make its acronym, in the order said or with the eponym first as English says it
    // ("MOSCOW STATE TECHNICAL UNIVERSITY NAMED AFTER N.E. BAUMAN" → mstu, bmstu; round 33).
    const own = parts.slice(0, namedAfter);
    return [...new Set([...initialsOf(parts), ...initialsOf(own), ...initialsOf([parts[parts.length - 1], ...own])])];
  }
  return initialsOf(parts);
}

/** acronymsOf's readings of a name's initials. */
function initialsOf(parts: string[]): string[] {
  const words = parts.filter((part) => !ACRONYM_SKIPS.has(part));
  if (words.some((word) => !/^[a-z]{2}/.test(word))) return [];
  // Also after a legal form the name opens with, as shortAcronymsOf reads it: a closing kind keeps its initial
  // ("AO ZELVINSKIY ORDOVSKIY METALLURGICHESKIY KOMBINAT" → zomk; round 31 review).
  const acronyms = new Set([words, afterOpeningWeakWords(words), words.filter((word) => !isWeakToken(word))].map((kept) => kept.map((word) => word[0]).join('')));
  const keptLinks = parts.filter((part) => ACRONYM_SKIPS.has(part));
  if (parts[parts.length - 1] === 'sa' && keptLinks.length > 0 && keptLinks.every((part) => IBERIAN_LINKING_WORDS.has(part))) {
    acronyms.add(parts.slice(0, -1).map((word) => word[0]).join('') + 'sa');
  }
  return [...acronyms].filter((acronym) => acronym.length >= MIN_ACRONYM && acronym.length <= MAX_ACRONYM);
}

/** Words that open the eponym closing a body's name: English "named after", Russian "imeni" / "im.". */
const NAMED_AFTER = [['named', 'after'], ['imeni'], ['im']];

/** Where the closing "named after <eponym>" clause of a name opens, -1 for none (a clause of at most four words). */
function namedAfterAt(parts: string[]): number {
  for (let at = Math.max(1, parts.length - 6); at < parts.length - 1; at++) {
    const opening = NAMED_AFTER.find((words) => words.every((word, k) => parts[at + k] === word));
    if (opening && parts.length - at - opening.length <= 4) return at;
  }
  return -1;
}

/**
 * Three-letter acronyms an organisation's name may go by (round 28): the initials of its words without linking
 * words, after a legal form it opens with ("PUBLIC JOINT STOCK COMPANY UNITED AIRCRAFT CORPORATION" → uac), or
 * without any legal form. Three capitals spell some listed name's initials too often to be read as acronymsOf's
 * are (one random three-letter string in nine, even when one listed name alone spells it): see buildIndex's guard.
 */
export function shortAcronymsOf(parts: string[]): string[] {
  const words = parts.filter((part) => !ACRONYM_SKIPS.has(part));
  if (words.some((word) => !/^[a-z]{2}/.test(word))) return [];
  const acronyms = new Set([afterOpeningWeakWords(words), words.filter((word) => !isWeakToken(word))].map((kept) => kept.map((word) => word[0]).join('')));
  return [...acronyms].filter((acronym) => acronym.length === SHORT_ACRONYM);
}
const SHORT_ACRONYM = 3;

/** A name's words after the legal forms and other weak words it opens with ("PJSC UNITED AIRCRAFT CORPORATION"). */
function afterOpeningWeakWords(words: string[]): string[] {
  let start = 0;
  while (start < words.length && isWeakToken(words[start])) start++;
  return words.slice(start);
}

/** The words of an organisation's name that tell it from others: no linking words, no legal forms. */
function acronymSource(parts: string[]): string {
  return parts.filter((part) => !ACRONYM_SKIPS.has(part) && !isWeakToken(part)).join(' ');
}

/** A query written as an acronym: one word of capitals ("IRGC") or of dotted capitals ("I.S.I.L."). */
const ACRONYM_QUERY = new RegExp(`^\\s*(?:[A-Z]{${MIN_ACRONYM},${MAX_ACRONYM}}|(?:[A-Z]\\.){${MIN_ACRONYM},${MAX_ACRONYM}})\\s*$`);
/** Score of an organisation whose initials spell a query written as an acronym. */
export const ACRONYM_SCORE = 0.85;

/** A query written as a three-letter acronym: "UAC", "U.A.C.". */
const SHORT_ACRONYM_QUERY = /^\s*(?:[A-Z]{3}|(?:[A-Z]\.){3}|[A-Z]\.[A-Z]\.[A-Z])\s*$/;

/** Organisations whose names' initials spell `name` when it is written as an acronym, at ACRONYM_SCORE. */
function searchAcronym(index: ScreeningIndex, query: string): NameHit[] {
  const name = withoutLegalFormWords(query);
  const short = SHORT_ACRONYM_QUERY.test(name);
  if (!short && !ACRONYM_QUERY.test(name)) return [];
  const acronym = name.replace(/[^A-Z]/g, '').toLowerCase();
  const hits = new Map<number, NameHit>();
  for (const nameId of (short ? index.byShortAcronym : index.byAcronym).get(acronym) ?? []) {
    const entityIndex = index.nameEntity[nameId];
    if (hits.has(entityIndex)) continue;
    const start = index.nameTokenStart[nameId];
    const matched = Array.from(index.nameTokens.subarray(start, index.nameTokenStart[nameId + 1]), (t) => index.tokens[t]).join(' ');
    hits.set(entityIndex, {
      entityIndex, nameSlot: index.nameSlot[nameId], kind: index.entities[entityIndex].names[index.nameSlot[nameId]].kind, score: ACRONYM_SCORE,
      pairings: [{ query: acronym, matched, similarity: ACRONYM_SCORE }], unmatchedQuery: [], unmatchedListed: [],
    });
  }
  return [...hits.values()];
}

/**
 * A query's words without the legal forms beside them, as written: a company goes by its acronym with its form
 * ("AO MCST", "KAMAZ PJSC", "OOO RUSAL"), which is read as the acronym alone (round 31). A query of legal forms only
 * is left as it is.
 */
function withoutLegalFormWords(query: string): string {
  const words = query.trim().split(/\s+/);
  const kept = words.filter((word) => !tokenise(word).every((token) => LEGAL_FORM_TOKENS.has(token)));
  return kept.length > 0 && kept.length < words.length ? kept.join(' ') : query;
}

/** Whether a listed name's tokens beside position `except` are all legal forms ("AO MCST" beside "mcst"). */
function onlyLegalFormsBeside(index: ScreeningIndex, nameId: number, except: string): boolean {
  let acronymSeen = false;
  for (let p = index.nameTokenStart[nameId]; p < index.nameTokenStart[nameId + 1]; p++) {
    const token = index.tokens[index.nameTokens[p]];
    if (token === except && !acronymSeen) acronymSeen = true;
    else if (!LEGAL_FORM_TOKENS.has(token)) return false;
  }
  return acronymSeen;
}

/**
 * Organisations listed only under the acronym a query spells out ("Islamic Revolutionary Guard Corps" → a listed
 * "IRGC"), at ACRONYM_SCORE: a listed name that is one word and the initials of the query's words. An organisation
 * that also lists a name with those initials is found by that name or not at all: "IRAN AIRCRAFT MERIDIAN
 * INDUSTRIAL COMPANY" is not IAMI, IRAN AIRCRAFT MANUFACTURING INDUSTRIAL COMPANY.
 */
function searchSpelledOut(index: ScreeningIndex, name: string): NameHit[] {
  const hits: NameHit[] = [];
  const parts = tokenise(name);
  // Three initials only as the lists attest them for these words ("United Shipbuilding Corporation" → USC).
  // Three initials only as the lists attest them for these words ("United Shipbuilding Corporation" → USC), and only
  // an organisation that is the attesting body under another list's name: not another body with the same initials.
  const candidates: Array<{ acronym: string; sameBody?: Set<number> }> = acronymsOf(parts).map((acronym) => ({ acronym }));
  for (const acronym of shortAcronymsOf(parts)) {
    const sameBody = index.attestedShortAcronyms.get(`${acronym} ${acronymSource(parts)}`);
    if (sameBody) candidates.push({ acronym, sameBody });
  }
  for (const { acronym, sameBody } of candidates) {
    const id = index.vocabulary.get(acronym);
    if (id === undefined) continue;
    for (let p = index.postingStart[id]; p < index.postingStart[id + 1]; p++) {
      const nameId = index.postings[p];
      const entityIndex = index.nameEntity[nameId];
      const entity = index.entities[entityIndex];
      // The acronym alone, or beside its legal form ("AO MCST" for "Moscow Center of SPARC Technologies", round 31)
      // when the organisation goes by no other name: one that does is found by that name or not at all ("Falcon
      // Evergreen Dental Clinic" is not a JSC FEDC listed with its own full name).
      const nameLength = index.nameTokenStart[nameId + 1] - index.nameTokenStart[nameId];
      if (entity.type !== 'organization' || !onlyLegalFormsBeside(index, nameId, acronym)) continue;
      if (nameLength > 1 && !entity.names.every((other) => tokenise(other.full).every((token) => token === acronym || LEGAL_FORM_TOKENS.has(token)))) continue;
      if (sameBody && !sameBody.has(entityIndex)) continue;
      if (entity.names.some((other) => {
        const otherParts = tokenise(other.full);
        return [...acronymsOf(otherParts), ...shortAcronymsOf(otherParts)].includes(acronym);
      })) continue;
      hits.push({
        entityIndex, nameSlot: index.nameSlot[nameId], kind: entity.names[index.nameSlot[nameId]].kind, score: ACRONYM_SCORE,
        pairings: [{ query: name, matched: acronym, similarity: ACRONYM_SCORE }], unmatchedQuery: [], unmatchedListed: [],
      });
    }
  }
  return hits;
}

/**
 * Whether a country an organisation's name is written with may be the body's own: the list records it (as a country,
 * a nationality, an address's or the issuer of a registration or tax number), or records none. A sibling abroad is
 * another body: "Alfa-Bank Ukraine" is not the Russian ALFA-BANK, "Zenith Bank Nigeria" not BANK ZENIT, whose tax
 * number is Russian (OFAC's CSV gives most organisations no address, but a registration's country).
 */
function mayBeOwnCountry(entity: ListEntity, country: string): boolean {
  const recorded = [
    ...entity.countries,
    ...entity.nationalities,
    ...entity.addresses.map((address) => address.country),
    ...entity.identifiers.map((identifier) => identifier.country),
  ];
  return recorded.every((other) => other === undefined) || recorded.includes(country);
}

/** A listed organisation's name without the country it closes with, when that is the body's own (round 32). */
function withoutOwnClosingCountry(entity: ListEntity, written: string): string | undefined {
  const left = withoutClosingCountry(written);
  return left && mayBeOwnCountry(entity, left.country) ? left.reading : undefined;
}

/**
 * Whether a person's weak alias is a full name all the same ("Masud Azhar", which the UN list rates low): two
 * distinctive parts or more and no kunya ("Abu Bakr", "Umm Ali"). It is then scored like an alias, still reported as
 * a weak one.
 */
function isFullName(parts: string[]): boolean {
  return parts.filter((part) => !isWeakToken(part) && part.length > 1).length >= 2 && !/^(abu|abou|abo|umm|um)$/.test(parts[0]);
}

/**
 * A person of North or South Korea, whose name is romanised syllable by syllable: by nationality, or without one
 * by a North Korea sanctions programme or a Korean country when the primary name is Korean-shaped too (a Korean
 * family name first or last, every part a syllable or two): the DPRK programmes also list Chinese, Taiwanese,
 * Singaporean, Russian and Indian persons without a nationality ("Tsang, Neil"; "TSENG, Yung Yuan").
 */
function isKoreanPerson(entity: ListEntity): boolean {
  if (entity.type !== 'person') return false;
  if (entity.nationalities.length) return entity.nationalities.some((c) => c === 'KP' || c === 'KR');
  if (!entity.programs.some((program) => program.startsWith('DPRK')) && !entity.countries.some((c) => c === 'KP' || c === 'KR')) return false;
  const parts = tokenise(entity.names[0]?.full ?? '');
  return parts.length >= 2 && parts.every((part) => part.length <= KOREAN_SYLLABLE_LENGTH * 2)
    && (KOREAN_FAMILY.has(parts[0]) || KOREAN_FAMILY.has(parts[parts.length - 1]));
}

/** Programmes that list North Koreans without a nationality: the DPRK ones and non-proliferation ("PAK, To-Chun"). */
const PROGRAMME_LISTING_KOREANS = /^(?:DPRK|NPWMD)/;

/**
 * A person without a nationality or country whose primary name is Korean by its shape: said family name first, a
 * Korean family name, every given part one syllable or two written together ("Gim Jeong-eun", "Moon Jae-in", "Kim
 * Jongun"), listed under no programme or one that lists North Koreans. The shape alone does not tell a Chinese name
 * ("CHANG, Chi Fu", "LI, Yi" under the narcotics and Iran programmes), and a Korean name part's key pairs every
 * listed name holding it ("li"/"yi" for the Burmese "YI, Khin Maung"). Such a name is also read as Wade-Giles.
 */
function hasKoreanShapedName(entity: ListEntity): boolean {
  if (entity.type !== 'person' || entity.nationalities.length || entity.countries.length) return false;
  if (entity.programs.length && !entity.programs.some((program) => PROGRAMME_LISTING_KOREANS.test(program))) return false;
  const parts = tokenise(entity.names[0]?.full ?? '');
  return parts.length >= 2 && parts.length <= 4 && KOREAN_FAMILY.has(parts[0]) && parts.slice(1).every((part) => ONE_OR_TWO_KOREAN_SYLLABLES.test(part));
}

/**
 * A North Korean vessel's name, romanised and joined as a Korean person's is ("Baek Ma Kang", "Paek Ma Gang",
 * "Paekmagang"): a vessel flagged KP or listed under a DPRK programme, or listed with neither mark, whose primary
 * name is Korean by its shape, two words or more of one or two Korean syllables each, numbers aside ("PAEK MA",
 * "JANG GYONG", "HWANG GUM SAN 2"). Not one under the non-proliferation programme, which lists Iran's fleet, nor a
 * ship of another name under a DPRK programme ("SEVASTOPOL", "LUCKY STAR", "STAR 18" formerly "THINH CUONG"): their
 * words are not Korean syllables, and Korean consonant folds would make "Sud" its "SOUTH", "Dinh" its "THINH".
 */
function isKoreanVessel(entity: ListEntity): boolean {
  if (entity.type !== 'vessel') return false;
  if ((entity.countries.length || entity.programs.length) && !entity.countries.includes('KP') && !entity.programs.some((program) => program.startsWith('DPRK'))) return false;
  const words = tokenise(entity.names[0]?.full ?? '').filter((word) => !isWeakToken(word) && !/^\d+$/.test(word));
  return words.length >= 2 && words.every((word) => ONE_OR_TWO_KOREAN_SYLLABLES.test(word));
}

/**
 * Countries whose persons' names are written in Cyrillic, now or in Soviet times: the former Soviet republics,
 * Bulgaria, Serbia, Montenegro, North Macedonia, Bosnia and Herzegovina, Mongolia.
 */
const CYRILLIC_COUNTRIES = new Set(['RU', 'UA', 'BY', 'KZ', 'KG', 'TJ', 'UZ', 'TM', 'MD', 'AM', 'AZ', 'GE', 'EE', 'LV', 'LT', 'BG', 'RS', 'ME', 'MK', 'BA', 'MN']);

/**
 * Whether a listed person's Latin name may be a German, French or Polish transcription of a Cyrillic one: a person
 * of such a country, or of no known country. A Chinese "Jianshu" or a Spanish "Juan" is not read back as Cyrillic.
 */
function mayBeTranscribedFromCyrillic(entity: ListEntity): boolean {
  if (entity.type !== 'person') return false;
  const countries = [...entity.nationalities, ...entity.countries];
  return countries.length === 0 || countries.some((country) => CYRILLIC_COUNTRIES.has(country));
}

/**
 * A person's name listed "FAMILY, Title Given…" or said in order "Title Given… Family" without its title ("KASKAR,
 * Shaikh Anis Ibrahim" → "KASKAR, Anis Ibrahim", "Sayyed Muhammad Husayn Fadlallah" → "Muhammad Husayn Fadlallah"),
 * which the press leaves out as often as it writes it; undefined when the given names open with none.
 */
function withoutListedTitle(written: string): string | undefined {
  const comma = written.indexOf(',');
  if (comma < 0) return withoutLeadingTitle(written);
  const given = written.slice(comma + 1).trim().split(/\s+/);
  if (given.length < 2 || !isNameTitle(normaliseText(given[0]))) return undefined;
  return `${written.slice(0, comma)}, ${given.slice(1).join(' ')}`;
}

/** The spellings of sheikh that are kept as name parts (see NAME_TITLES in normalize.ts). */
const SHEIKH = /^(?:sheikh|shaikh|shaykh|sheik)$/;

/** Korean family names in the romanisations the lists use (North and South, McCune-Reischauer and Revised). */
const KOREAN_FAMILY = new Set([
  'kim', 'gim', 'ri', 'rhee', 'lee', 'yi', 'li', 'rim', 'lim', 'im', 'pak', 'park', 'bak', 'choe', 'choi', 'chwe', 'jong', 'jung', 'chong',
  'chung', 'jeong', 'kang', 'gang', 'cho', 'jo', 'yun', 'yoon', 'jang', 'chang', 'han', 'o', 'oh', 'so', 'seo', 'suh', 'sin', 'shin',
  'kwon', 'gwon', 'hwang', 'an', 'ahn', 'song', 'ryu', 'yu', 'yoo', 'hong', 'jon', 'jeon', 'chon', 'ko', 'go', 'mun', 'moon', 'yang',
  'son', 'pae', 'bae', 'paek', 'baek', 'ho', 'heo', 'hur', 'nam', 'sim', 'shim', 'ro', 'roh', 'no', 'noh', 'ha', 'kwak', 'gwak', 'cha',
  'ju', 'joo', 'chu', 'u', 'woo', 'ku', 'koo', 'min', 'ryom', 'yom', 'hyon', 'hyun', 'kye', 'tong', 'om', 'eom', 'sung', 'sok', 'seok',
]);

/** Whether a person's name part may be left out, and how much it then counts (see OPTIONAL_WEIGHT). */
function optionalPartAt(parts: string[], middle: boolean[], secondFamily: boolean[], position: number): OptionalPart {
  if (!middle[position]) return OptionalPart.No;
  if (secondFamily[position]) return OptionalPart.SecondFamily;
  return position > 0 && CHAIN_PARTICLES.has(parts[position - 1]) ? OptionalPart.Minor : OptionalPart.Middle;
}

/**
 * The OptionalPart of each query token read as a person's name (as listed names are read: "Viktor Feliksovich
 * Vekselberg", "MADURO MOROS, Nicolas"), all No when the query's words do not tokenise like the whole.
 */
function queryOptionalParts(name: string, tokens: readonly string[]): OptionalPart[] {
  const { parts, middle, secondFamily } = listedNameParts(name, true);
  if (parts.length !== tokens.length || parts.some((part, i) => part !== tokens[i])) return tokens.map(() => OptionalPart.No);
  return parts.map((_, position) => optionalPartAt(parts, middle, secondFamily, position));
}

export function buildIndex(entities: ListEntity[]): ScreeningIndex {
  const vocabulary = new Map<string, number>();
  const tokens: string[] = [];
  const documentFrequency: number[] = [];
  const readingFrequency: number[] = [];
  const nameEntity: number[] = [];
  const nameSlot: number[] = [];
  const nameKind: number[] = [];
  const nameTokenStart: number[] = [0];
  const nameTokens: number[] = [];
  const nameTokenMiddle: number[] = [];
  const nameTokenOrder: number[] = [];
  const nameCjk = new Map<number, string>();
  const namesWithFullerNameBeside = new Set<number>();
  const nameNisba = new Map<number, { nisba: number; standIns: number[] }>();
  const byJoined = new Map<string, number[]>();
  const byHyphenatedKey = new Map<string, number[]>();
  const byIdentifier = new Map<string, number[]>();
  const byAcronym = new Map<string, number[]>();
  const shortAcronymNames: Array<{ acronym: string; source: string; nameId: number; entityIndex: number }> = [];
  const shortNamesOf = new Map<number, Set<string>>();
  const organisationNamesOf = new Map<number, Set<string>>();
  const byShortAcronym = new Map<string, number[]>();
  const koreanSyllables = new Set<number>();
  const koreanNames = new Set<number>();
  const syllablesJoinedNames = new Set<number>();
  const placeLeftOutNames = new Set<number>();
  const countryLeftOutNames = new Set<number>();
  const translatedNames = new Set<number>();
  const shortCountryNames = new Set<number>();
  const titleLeftOutNames = new Set<number>();
  const alDinApartNames = new Set<number>();
  const readingNames = new Set<number>();
  const transcribableTokens = new Set<number>();
  // Words of organisations' and vessels' names: there "Junior" or "JR" is a brand ("ALMACEN JUNIOR"), not a generation.
  const wordsOfNonPersons = new Set<number>();
  const byPinyin = new Map<string, number[]>();
  const pinyinOf = new Map<number, string[]>();

  entities.forEach((entity, entityIndex) => {
    const koreanByMark = isKoreanPerson(entity);
    const korean = koreanByMark || hasKoreanShapedName(entity) || isKoreanVessel(entity);
    const transcribable = mayBeTranscribedFromCyrillic(entity);
    const writtenNumbers: string[] = [];
    const firstNameId = nameEntity.length;
    // token id of a given or family name → the most optional parts one of this person's names with it gives
    const mostOptionalPartsWith = new Map<number, number>();
    entity.names.forEach((name, slot) => {
      // A vessel's IMO number written into a listed name ("HAMGAM IMO 9226956") is an identifier, as in a query.
      const { name: written, numbers } = splitVesselNumbers(name.full);
      writtenNumbers.push(...numbers);
      // A person's closing I is an initial ("PECHEGIN, Andrey I."), not a numeral.
      const numeralOne = entity.type === 'person' ? undefined : withClosingNumeralOne(written);
      // A vessel's readings: its name without what it is ("SANDINO tanker"), its syllables written together.
      const withoutKind = entity.type === 'vessel' ? withoutClosingVesselKind(written) ?? withoutLeadingVesselKind(written) : undefined;
      const syllablesJoined = entity.type === 'vessel' ? withVesselSyllablesJoined(numeralOne ?? withoutKind ?? written) : undefined;
      const vesselWords = entity.type === 'vessel' ? vesselNameReading(withoutKind ?? written) : undefined;
      const withoutPlace = entity.type === 'organization' ? withoutPlaceName(written) : undefined;
      const withoutCountry = entity.type === 'organization' && !withoutPlace ? withoutOwnClosingCountry(entity, written) : undefined;
      const inEnglish = entity.type === 'organization' ? withKindWordsInEnglish(written) : undefined;
      const shortCountries = entity.type === 'organization' ? withShortCountryNames(written) : undefined;
      const withoutTitle = entity.type === 'person' ? withoutListedTitle(written) : undefined;
      const alDinApart = entity.type === 'person' ? withAlDinApart(written) : undefined;
      const readings = [withoutKind, syllablesJoined, vesselWords, withoutPlace, withoutCountry, inEnglish, shortCountries, withoutTitle, alDinApart].filter((reading) => reading !== undefined);
      for (const variant of [...nameVariants(written), ...(numeralOne ? [numeralOne] : []), ...readings]) {
        const reading = readings.includes(variant);
        const { parts, middle, order, secondFamily, nisba } = listedNameParts(variant, entity.type === 'person');
        if (parts.length === 0) continue;
        const nameId = nameEntity.length;
        const cjk = cjkCharacters(variant);
        if (cjk) nameCjk.set(nameId, cjk);
        nameEntity.push(entityIndex);
        nameSlot.push(slot);
        nameKind.push(NAME_KINDS.indexOf(name.kind === 'weak_alias' && entity.type === 'person' && isFullName(parts) ? 'alias' : name.kind));
        const seen = new Set<number>();
        parts.forEach((part, position) => {
          let id = vocabulary.get(part);
          if (id === undefined) {
            id = tokens.length;
            vocabulary.set(part, id);
            tokens.push(part);
            documentFrequency.push(0);
            readingFrequency.push(0);
          }
          // A vessel's reading is of a name already counted: rarity stays as it was.
          if (!seen.has(id)) (reading ? readingFrequency : documentFrequency)[id]++;
          if (entity.type !== 'person') wordsOfNonPersons.add(id);
          if (korean) koreanSyllables.add(id);
          if (transcribable) transcribableTokens.add(id);
          seen.add(id);
          nameTokens.push(id);
          nameTokenMiddle.push(optionalPartAt(parts, middle, secondFamily, position));
          nameTokenOrder.push(Math.min(order[position], 255));
        });
        nameTokenStart.push(nameTokens.length);
        if (entity.type === 'person') {
          const given = optionalPartsGiven(nameTokenMiddle, nameTokenStart[nameId], nameTokens.length);
          for (let k = nameTokenStart[nameId]; k < nameTokens.length; k++) {
            if (nameTokenMiddle[k] === OptionalPart.No) mostOptionalPartsWith.set(nameTokens[k], Math.max(mostOptionalPartsWith.get(nameTokens[k]) ?? 0, given));
          }
        }
        if (reading) readingNames.add(nameId);
        if (variant === syllablesJoined) syllablesJoinedNames.add(nameId);
        if (variant === withoutPlace) placeLeftOutNames.add(nameId);
        if (variant === withoutCountry) countryLeftOutNames.add(nameId);
        if (variant === inEnglish) translatedNames.add(nameId);
        if (variant === shortCountries) shortCountryNames.add(nameId);
        if (variant === withoutTitle) titleLeftOutNames.add(nameId);
        if (variant === alDinApart) alDinApartNames.add(nameId);
        if (entity.type === 'person') for (const joined of hyphenatedWords(variant)) pushTo(byHyphenatedKey, transliterationKey(joined), nameId);
        if (korean) {
          koreanNames.add(nameId);
          // "Pyeongchol" for "Pyong Chol": given syllables written together in another romanisation.
          for (let i = 0; i + 1 < parts.length; i++) pushTo(byJoined, koreanKey(parts[i]) + koreanKey(parts[i + 1]), nameId);
        }
        if (entity.type === 'person' && !koreanByMark && pinyinReading(variant)) {
          const spellings = parts.map((part) => [part, ...wadeGilesSyllableReadings(part)]);
          spellings.forEach(([part, ...readings]) => {
            if (!readings.length) return;
            const id = vocabulary.get(part)!;
            for (const reading of readings) pushTo(byPinyin, reading, id);
            pinyinOf.set(id, readings);
          });
          for (let i = 0; i + 1 < parts.length; i++) {
            for (const first of spellings[i]) for (const second of spellings[i + 1]) pushTo(byJoined, first + second, nameId);
          }
        }
        const nisbaAt = nisba.indexOf(true);
        if (nisbaAt >= 0) {
          // Initials ("Tarik Nasser S.") stand in for nothing.
          const given = parts.map((part, i) => [part, i] as const).filter(([part, i]) => !isWeakToken(part) && part.length > 1 && i !== nisbaAt).sort((a, b) => order[a[1]] - order[b[1]]);
          // In "TAREK BEN HABIB … AL-MAAROUFI" the second name is the father's: the press never says "Tarek Habib".
          const standIns = [...new Set([given[1][1], given[given.length - 1][1]])].filter((i) => i === 0 || !CHAIN_PARTICLES.has(parts[i - 1]));
          if (standIns.length) nameNisba.set(nameId, { nisba: nisbaAt, standIns });
        }
        for (let i = 0; i + 1 < parts.length; i++) {
          pushTo(byJoined, parts[i] + parts[i + 1], nameId);
          if (parts[i + 1] === AIRLINE_WORD_FOLDED) pushTo(byJoined, `${parts[i]}air`, nameId);
        }
        if (entity.type === 'organization') organisationNamesOf.set(entityIndex, (organisationNamesOf.get(entityIndex) ?? new Set<string>()).add(parts.join(' ')));
        // Initials of a reading with some words translated mix two languages' ("Dalnevostochnaya Gorno Rudnaya Company").
        if (entity.type === 'organization' && name.kind !== 'weak_alias' && variant !== inEnglish) {
          for (const acronym of acronymsOf(parts)) pushTo(byAcronym, acronym, nameId);
          const own = acronymSource(parts);
          for (const acronym of shortAcronymsOf(parts)) shortAcronymNames.push({ acronym, source: own, nameId, entityIndex });
          if (/^[a-z]{3}$/.test(own)) shortNamesOf.set(entityIndex, (shortNamesOf.get(entityIndex) ?? new Set<string>()).add(own));
        }
        // "VladimirPutin" for "PUTIN, Vladimir Vladimirovich": first given name and family name as said.
        const first = order.indexOf(0);
        const family = parts.findIndex((part, i) => order[i] > order[first] && !middle[i] && !isWeakToken(part));
        if (first > 0 && family >= 0) pushTo(byJoined, parts[first] + parts[family], nameId);
      }
    });
    if (entity.type === 'person') {
      for (let nameId = firstNameId; nameId < nameEntity.length; nameId++) {
        const start = nameTokenStart[nameId];
        const end = start + Math.min(nameTokenStart[nameId + 1] - start, MAX_TOKENS);
        const given = optionalPartsGiven(nameTokenMiddle, start, end);
        for (let k = start; k < end; k++) {
          if (nameTokenMiddle[k] === OptionalPart.No && (mostOptionalPartsWith.get(nameTokens[k]) ?? 0) > given) {
            namesWithFullerNameBeside.add(nameId);
            break;
          }
        }
      }
    }
    for (const value of [...entity.identifiers.map((identifier) => identifier.value), ...writtenNumbers]) {
      const key = identifierKey(value);
      if (key) pushTo(byIdentifier, key, entityIndex);
    }
  });

  const nameCount = nameEntity.length;
  const weighedNames = nameCount - readingNames.size;
  const frequency = (id: number): number => documentFrequency[id] || readingFrequency[id];
  const weight = new Float32Array(tokens.length);
  const queryWeight = new Map<number, number>();
  const phoneticOf: string[] = new Array(tokens.length);
  const byPhonetic = new Map<string, number[]>();
  const byTrigram = new Map<string, number[]>();
  const byTransliteration = new Map<string, number[]>();
  const byKoreanSyllable = new Map<string, number[]>();
  const koreanKeyOf = new Map<number, string>();
  for (const id of koreanSyllables) {
    koreanKeyOf.set(id, koreanKey(tokens[id]));
    pushTo(byKoreanSyllable, koreanKeyOf.get(id)!, id);
  }
  // Transliteration key of each token of 4+ letters (see transliterationKey), and how many names hold one of its spellings.
  const spellingKeys = tokens.map((token) => (token.length >= 4 && /^[a-z]+$/.test(token) ? transliterationKey(token) : undefined));
  const spellingFrequency = new Map<string, number>();
  spellingKeys.forEach((key, id) => {
    if (key) spellingFrequency.set(key, (spellingFrequency.get(key) ?? 0) + documentFrequency[id]);
  });
  const spellingWeight = new Float32Array(tokens.length);
  tokens.forEach((token, id) => {
    // A listed initial ("HOSSENI, M. Ali") tells as little as one in a query, however few names hold that letter alone.
    // A listed generation (Jr., Sr.) weighs as a query's does (see queryTokens): left out, it costs little. Not a word
    // an organisation's name holds: "Almacen" is not "ALMACEN JUNIOR", nor "Controladora de Restaurantes" "JR CONTROLADORA…".
    weight[id] = isWeakToken(token) || (GENERATIONS.has(token) && !wordsOfNonPersons.has(id)) ? WEAK_TOKEN_WEIGHT
      : /^[a-z]$/.test(token) ? Math.log(1 + weighedNames / INITIAL_SHARE) : Math.log(1 + weighedNames / frequency(id));
    if (isListedKindWord(token)) {
      queryWeight.set(id, weight[id]);
      weight[id] = WEAK_TOKEN_WEIGHT;
    }
    const key = spellingKeys[id];
    spellingWeight[id] = key && !isWeakToken(token) ? Math.log(1 + weighedNames / (spellingFrequency.get(key) || frequency(id))) : weight[id];
    const [primary, secondary] = /[a-z]/.test(token) ? doubleMetaphone(token) : [token, token];
    phoneticOf[id] = primary;
    if (primary.length >= 2) pushTo(byPhonetic, primary, id);
    if (secondary.length >= 2 && secondary !== primary) pushTo(byPhonetic, secondary, id);
    if (token.length >= 3) for (const gram of trigrams(token)) pushTo(byTrigram, gram, id);
    if (key) pushTo(byTransliteration, key, id);
  });
  const byTranscribedKey = new Map<string, number[]>();
  const transcribedReadings = new Map<number, string[]>();
  for (const id of transcribableTokens) {
    // One Chinese or Korean syllable ("Chung", "Jang") is no transcription of a Russian name part: read as German
    // ("Khung") it met the Pinyin "Huang".
    const readings = isWeakToken(tokens[id]) || EAST_ASIAN_SYLLABLE.test(tokens[id]) ? [] : nationalTranscriptionReadings(tokens[id]);
    if (!readings.length) continue;
    transcribedReadings.set(id, readings);
    for (const key of new Set(readings.map(transliterationKey))) pushTo(byTranscribedKey, key, id);
  }

  // Postings: token id → ids of the names holding it, in one flat array.
  const postingStart = new Uint32Array(tokens.length + 1);
  const lastName = new Int32Array(tokens.length).fill(-1);
  for (let n = 0; n < nameCount; n++) {
    for (let k = nameTokenStart[n]; k < nameTokenStart[n + 1]; k++) {
      const t = nameTokens[k];
      if (lastName[t] !== n) postingStart[t + 1]++;
      lastName[t] = n;
    }
  }
  lastName.fill(-1);
  for (let t = 0; t < tokens.length; t++) postingStart[t + 1] += postingStart[t];
  const fill = postingStart.slice(0, tokens.length);
  const postings = new Uint32Array(postingStart[tokens.length]);
  const nameWeight = new Float32Array(nameCount);
  for (let n = 0; n < nameCount; n++) {
    let total = 0;
    for (let k = nameTokenStart[n]; k < nameTokenStart[n + 1]; k++) {
      const t = nameTokens[k];
      total += weight[t] * OPTIONAL_WEIGHT[nameTokenMiddle[k]];
      if (lastName[t] !== n) postings[fill[t]++] = n;
      lastName[t] = n;
    }
    nameWeight[n] = total;
  }
  // Three initials are read only as the lists attest them: an organisation listed under the acronym as well as under
  // a name that spells it ("JOINT STOCK COMPANY UNITED SHIPBUILDING CORPORATION", a.k.a. "JSC USC"). Every listed
  // name with the same distinctive words is then found by it, as the same body on another list or in another
  // register form; a name that merely has those initials is not ("UNITED STEEL COMPANY" is not USC).
  const attesting = new Map<string, number[]>();
  for (const { acronym, source, entityIndex } of shortAcronymNames) if (shortNamesOf.get(entityIndex)?.has(acronym)) pushTo(attesting, `${acronym} ${source}`, entityIndex);
  for (const { acronym, source, nameId } of shortAcronymNames) if (attesting.has(`${acronym} ${source}`)) pushTo(byShortAcronym, acronym, nameId);
  // Spelt out, such words find an organisation listed under the acronym alone only when it shares another listed
  // name with an attesting one: LASHKAR E-TAYYIBA, a.k.a. JUD, on OFAC's list is the UN's LASHKAR-E-TAYYIBA, which
  // pairs JUD with "Jamaat-ud-Dawa"; a plant a.k.a. NMZ in Nizhnekamsk is not the NMZ of Novovyatsk.
  const listedUnder = new Map<string, number[]>();
  for (const [entityIndex, names] of organisationNamesOf) {
    for (const full of names) {
      const own = acronymSource(full.split(' '));
      if (/^[a-z]{3}$/.test(own)) pushTo(listedUnder, own, entityIndex);
    }
  }
  const attestedSameBody = new Map<string, Set<number>>();
  for (const [key, attesters] of attesting) {
    const acronym = key.slice(0, SHORT_ACRONYM);
    const sameBody = new Set<number>();
    for (const entityIndex of listedUnder.get(acronym) ?? []) {
      const names = [...(organisationNamesOf.get(entityIndex) ?? [])].filter((full) => acronymSource(full.split(' ')) !== acronym);
      if (attesters.some((other) => names.some((full) => organisationNamesOf.get(other)?.has(full)))) sameBody.add(entityIndex);
    }
    attestedSameBody.set(key, sameBody);
  }

  return {
    entities,
    vocabulary,
    tokens,
    phoneticOf,
    weight,
    queryWeight,
    spellingWeight,
    common: commonTokens(tokens, spellingWeight),
    byPhonetic,
    byTrigram,
    byJoined,
    byHyphenatedKey,
    byAcronym,
    byShortAcronym,
    attestedShortAcronyms: attestedSameBody,
    byKoreanSyllable,
    koreanKeyOf,
    koreanNames,
    syllablesJoinedNames,
    placeLeftOutNames,
    countryLeftOutNames,
    translatedNames,
    shortCountryNames,
    titleLeftOutNames,
    alDinApartNames,
    byPinyin,
    pinyinOf,
    byTransliteration,
    byTranscribedKey,
    transcribedReadings,
    postingStart,
    postings,
    nameEntity: Uint32Array.from(nameEntity),
    nameSlot: Uint16Array.from(nameSlot),
    nameKind: Uint8Array.from(nameKind),
    nameTokenStart: Uint32Array.from(nameTokenStart),
    nameTokens: Uint32Array.from(nameTokens),
    nameTokenMiddle: Uint8Array.from(nameTokenMiddle),
    nameTokenOrder: Uint8Array.from(nameTokenOrder),
    nameNisba,
    nameCjk,
    namesWithFullerNameBeside,
    nameWeight,
    byIdentifier,
  };
}

/** Transliteration key (see transliterationKey) → the common names (common-names.ts) of that key. */
const COMMON_BY_KEY = new Map<string, string[]>();
for (const name of [...COMMON_FAMILY, ...COMMON_GIVEN]) if (name.length >= 4) pushTo(COMMON_BY_KEY, transliterationKey(name), name);

/** Whether a token is a common name part among people at large: itself, a short form or another spelling of one. */
function isCommonName(token: string): boolean {
  if (COMMON_FAMILY.has(token) || COMMON_GIVEN.has(token)) return true;
  if ([...equivalentGivenNames(token), ...arabicRespellings(token)].some((other) => COMMON_GIVEN.has(other))) return true;
  if (token.length < 4 || !/^[a-z]+$/.test(token)) return false;
  return (COMMON_BY_KEY.get(transliterationKey(token)) ?? []).some((name) => transliterationSimilarity(token, name) > 0);
}

function commonTokens(tokens: string[], spellingWeight: Float32Array): Uint8Array {
  return Uint8Array.from(tokens, (token, id) => (!isWeakToken(token) && (spellingWeight[id] <= COMMON_WEIGHT || isCommonName(token)) ? 1 : 0));
}

interface QueryToken {
  text: string;
  /** This token and the next one written together ("abdul" + "rahman"), '' for the last. */
  joinedWithNext: string;
  /** Its Korean key (see koreanKey), to pair with Korean syllables written together. */
  koreanKey: string;
  weight: number;
  weak: boolean;
  /** A one-letter token that is not a digit: it pairs with any name part of that letter. */
  initial: boolean;
  /** Read as a person's name, whether this part may be left out by the listed name (see queryOptionalParts). */
  optional: OptionalPart;
  /** Written after a comma ("PUTIN, Vladimir"): the query is not said in order. */
  afterComma: boolean;
  /** A common name part (see ScreeningIndex.common). */
  common: boolean;
  /** Vocabulary token id → similarity, for every listed token this query token matches. */
  similar: Map<number, number>;
}

export interface TokenPairing {
  query: string;
  matched: string;
  similarity: number;
}

export interface NameHit {
  entityIndex: number;
  nameSlot: number;
  kind: NameKind;
  score: number;
  pairings: TokenPairing[];
  /** Query tokens that found no counterpart in the listed name. */
  unmatchedQuery: string[];
  /** Tokens of the listed name the query does not have. */
  unmatchedListed: string[];
}

/**
 * Adds a name's best evidence of this round (one query token or joined pair); with `admitNew` false only names
 * already seen gain evidence, the others could not reach the candidate floor any more.
 */
function credit(nameId: number, amount: number, round: number, admitNew: boolean): void {
  const { evidence, stamp, roundBest, touched } = scratch;
  if (stamp[nameId] === round) {
    if (amount > roundBest[nameId]) {
      evidence[nameId] += amount - roundBest[nameId];
      roundBest[nameId] = amount;
    }
    return;
  }
  if (evidence[nameId] === 0) {
    if (!admitNew) return;
    touched.push(nameId);
  }
  stamp[nameId] = round;
  roundBest[nameId] = amount;
  evidence[nameId] += amount;
}

/** Primary and secondary phonetic keys; digits-only tokens are their own key. */
function phoneticKeys(token: string): [string, string] {
  return /[a-z]/.test(token) ? doubleMetaphone(token) : [token, token];
}

/** Scratch space reused across queries: one query runs at a time on a JS thread. */
class Scratch {
  evidence = new Float32Array(0);
  roundBest = new Float32Array(0);
  stamp = new Uint32Array(0);
  touched: number[] = [];
  trigramCount = new Uint16Array(0);
  trigramTouched: number[] = [];
  round = 0;
  ensure(index: ScreeningIndex): void {
    const names = index.nameEntity.length;
    if (this.evidence.length < names) {
      this.evidence = new Float32Array(names);
      this.roundBest = new Float32Array(names);
      this.stamp = new Uint32Array(names);
    }
    if (this.trigramCount.length < index.tokens.length) this.trigramCount = new Uint16Array(index.tokens.length);
  }
}
const scratch = new Scratch();

/** Vocabulary tokens resembling `token`, with their similarity. */
function similarTokens(index: ScreeningIndex, token: string, [primary, secondary]: [string, string], byTrigrams = true): Map<number, number> {
  const found = new Map<number, number>();
  const exact = index.vocabulary.get(token);
  if (exact !== undefined) found.set(exact, 1);
  const phonetic = primary;
  // The plural or singular of a word the lists have ("line"/"lines"), which neither the phonetic key nor, once
  // the word itself is listed, the trigram search would propose.
  if (token.length >= 4) {
    const other = index.vocabulary.get(token.endsWith('s') ? token.slice(0, -1) : `${token}s`);
    if (other !== undefined) found.set(other, tokenSimilarity(token, index.tokens[other], phonetic, index.phoneticOf[other]));
  }
  for (const code of primary === secondary ? [primary] : [primary, secondary]) {
    for (const id of index.byPhonetic.get(code) ?? []) {
      if (found.has(id)) continue;
      const s = tokenSimilarity(token, index.tokens[id], phonetic, index.phoneticOf[id]);
      if (s > 0) found.set(id, s);
    }
  }
  if (token.length >= 4) {
    const key = transliterationKey(token);
    for (const id of index.byTransliteration.get(key) ?? []) {
      const s = transliterationSimilarity(token, index.tokens[id]);
      if (s > (found.get(id) ?? 0)) found.set(id, s);
    }
    // A listed name part in German, French or Polish transcription, read back as the query may write it.
    for (const id of index.byTranscribedKey.get(key) ?? []) {
      let s = 0;
      for (const reading of index.transcribedReadings.get(id)!) s = Math.max(s, reading === token ? 1 : transliterationSimilarity(token, reading));
      s *= ROMANISATION_SIMILARITY;
      if (s > (found.get(id) ?? 0)) found.set(id, s);
    }
  }
  if (byTrigrams && exact === undefined && token.length >= 3) {
    const grams = trigrams(token);
    const counts = scratch.trigramCount;
    const touched = scratch.trigramTouched;
    touched.length = 0;
    for (const gram of grams) {
      for (const id of index.byTrigram.get(gram) ?? []) {
        if (counts[id] === 0) touched.push(id);
        counts[id]++;
      }
    }
    for (const id of touched) {
      const shared = counts[id];
      counts[id] = 0;
      const other = index.tokens[id];
      if (found.has(id) || shared < Math.max(2, Math.floor(Math.min(grams.length, other.length + 2 - 2) * 0.4))) continue;
      const s = tokenSimilarity(token, other, phonetic, index.phoneticOf[id]);
      if (s > 0) found.set(id, s);
    }
  }
  return found;
}

function queryTokens(index: ScreeningIndex, name: string): QueryToken[] {
  scratch.ensure(index);
  const rare = Math.log(1 + index.nameEntity.length);
  const initialWeight = Math.log(1 + index.nameEntity.length / INITIAL_SHARE);
  const forms = queryTokenForms(name);
  const optionalParts = queryOptionalParts(name, forms.map((form) => form.text));
  const comma = name.indexOf(',');
  const beforeComma = comma < 0 ? forms.length : tokenise(name.slice(0, comma)).length;
  return forms.map(({ text, variants, transcriptions }, position) => {
    // A linking word never opens a name: a leading "E." or "Y." is an initial ("E. Bushmin", "Y. Evkurov").
    const weak = isWeakToken(text) && !(position === 0 && text.length === 1 && forms.length > 1);
    let id = index.vocabulary.get(text);
    const similar = similarTokens(index, text, phoneticKeys(text));
    const raise = (other: number, similarity: number): void => {
      if (similarity > (similar.get(other) ?? 0)) similar.set(other, similarity);
    };
    const addForm = (form: string, discount: number): void => {
      id ??= index.vocabulary.get(form);
      for (const [other, similarity] of similarTokens(index, form, phoneticKeys(form))) raise(other, similarity * discount);
    };
    for (const variant of variants) addForm(variant, ROMANISATION_SIMILARITY);
    // A transcription read back is the listed spelling or a romanisation of it, not a typo: found without the
    // trigram search, which keeps the many Latin words with a w, j or z cheap.
    for (const reading of transcriptions) {
      id ??= index.vocabulary.get(reading);
      for (const [other, similarity] of similarTokens(index, reading, phoneticKeys(reading), false)) raise(other, similarity * ROMANISATION_SIMILARITY);
    }
    for (const equivalent of equivalentGivenNames(text)) addForm(equivalent, isShortFormPair(text, equivalent) ? SHORT_FORM_SIMILARITY : ROMANISATION_SIMILARITY);
    for (const spelling of arabicRespellings(text)) addForm(spelling, EQUIVALENT_NAME_SIMILARITY);
    for (const patronymic of equivalentPatronymics(text)) {
      const other = index.vocabulary.get(patronymic);
      if (other !== undefined) raise(other, EQUIVALENT_NAME_SIMILARITY);
    }
    for (const other of index.byPinyin.get(text) ?? []) raise(other, ROMANISATION_SIMILARITY);
    const korean = koreanKey(text);
    if (text.length <= KOREAN_SYLLABLE_LENGTH) for (const other of index.byKoreanSyllable.get(korean) ?? []) raise(other, KOREAN_ROMANISATION_SIMILARITY);
    for (const other of similar.keys()) if (saidAgainstSayyid(text, index.tokens[other])) similar.delete(other);
    const joinedWithNext = position + 1 < forms.length ? withAirlineWordFolded(text + forms[position + 1].text) : '';
    const initial = !weak && /^[a-z]$/.test(text);
    // A generation after the name (Jr., Sr.) tells father from son, not who the family is: it weighs as a linking word.
    // Not when the lists write that word in an organisation's name (it then keeps its weight there too, see buildIndex).
    const generation = position > 0 && GENERATIONS.has(text) && (id === undefined || index.weight[id] === WEAK_TOKEN_WEIGHT);
    const weight = weak || generation ? WEAK_TOKEN_WEIGHT : initial ? initialWeight : id !== undefined ? index.queryWeight.get(id) ?? index.weight[id] : rare;
    return { text, joinedWithNext, koreanKey: korean, weak, initial, weight, similar, optional: weak ? OptionalPart.No : optionalParts[position], afterComma: position >= beforeComma,
      common: !weak && (id !== undefined ? index.common[id] === 1 : isCommonName(text)),
    };
  });
}

const MAX_PAIRS = 512;
const pairSimilarity = new Float64Array(MAX_PAIRS);
/** queryFrom | queryLength << 8 | listedFirst << 16 | listedSecond << 24, listedSecond NO_SECOND for none */
const pairShape = new Int32Array(MAX_PAIRS);
const NO_SECOND = 0xff;
const pairOrder = new Int32Array(MAX_PAIRS);
const MAX_TOKENS = 64;
const queryUsed = new Uint8Array(MAX_TOKENS);
/** Listed token each query token paired with alone, -1 when none or in a join. */
const queryPartner = new Int16Array(MAX_TOKENS);
const listedUsed = new Uint8Array(MAX_TOKENS);
/** Similarity of the pair each used listed token is in. */
const listedSimilarity = new Float64Array(MAX_TOKENS);
let pairCount = 0;

function addPair(similarity: number, queryFrom: number, queryLength: number, listedFirst: number, listedSecond: number): void {
  if (pairCount >= MAX_PAIRS) return;
  // Ties go to the pair covering more tokens: a join beats two half-matches.
  pairSimilarity[pairCount] = similarity + (queryLength + (listedSecond === NO_SECOND ? 1 : 2)) * 1e-9;
  pairShape[pairCount] = queryFrom | (queryLength << 8) | (listedFirst << 16) | (listedSecond << 24);
  pairCount++;
}

/** Shared characters of two CJK spellings over the longer: 高石 and 高市 read alike but share one of two. */
function cjkAgreement(query: string, listed: string): number {
  const remaining = [...listed];
  let shared = 0;
  for (const character of query) {
    const at = remaining.indexOf(character);
    if (at >= 0) {
      shared++;
      remaining.splice(at, 1);
    }
  }
  return shared / Math.max([...query].length, [...listed].length);
}

/**
 * Similarity of a word and two, `first` and `second`, written together (`joined`): a typo, or another romanisation of
 * a compound ("ahmadinezhad"/"ahmadinejad").
 */
function joinedSpellingSimilarity(word: string, joined: string, first: string, second: string): number {
  const s = joinedSimilarity(word, joined);
  if (s >= TRANSLITERATION_SIMILARITY || Math.min(word.length, joined.length) < MIN_HYPHENATED || !isCompound(first, second)) return s;
  return Math.max(s, transliterationSimilarity(word, joined));
}

/** Pairs each query word that is listed parts `first` and `second` written together (at `discount` of their similarity). */
function addJoinedListed(query: QueryToken[], queryCount: number, first: string, second: string, j: number, k: number, discount: number): void {
  for (let i = 0; i < queryCount; i++) {
    const text = query[i].text;
    if (text.charCodeAt(0) !== first.charCodeAt(0) || text.length <= first.length || !mayJoin(text.length, first.length + second.length)) continue;
    const s = joinedSpellingSimilarity(text, first + second, first, second);
    if (s >= JOINED_FLOOR) addPair(s * discount, i, 1, j, k);
  }
}

/**
 * Pairs two syllables of a Korean name written together on one side with the two written apart on the other, in
 * another romanisation: a query word with two listed parts ("Jongun" for "Jeong Eun"), two query words with a
 * listed part ("Jeong-eun" for "Jongun").
 */
function addJoinedKorean(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number, listedCount: number): void {
  for (let j = 0; j < listedCount; j++) {
    const listed = index.koreanKeyOf.get(index.nameTokens[start + j]);
    if (listed === undefined || KOREAN_SYLLABLE.test(index.tokens[index.nameTokens[start + j]])) continue;
    for (let i = 0; i + 1 < queryCount; i++) if (query[i].koreanKey + query[i + 1].koreanKey === listed) addPair(KOREAN_ROMANISATION_SIMILARITY, i, 2, j, NO_SECOND);
  }
  for (let j = 0; j + 1 < listedCount; j++) {
    const first = index.koreanKeyOf.get(index.nameTokens[start + j]);
    const second = index.koreanKeyOf.get(index.nameTokens[start + j + 1]);
    if (first === undefined || second === undefined) continue;
    for (let i = 0; i < queryCount; i++) {
      // Two syllables written together: longer than one can be, or not shaped like one ("jongun", "jaein").
      const text = query[i].text;
      if ((text.length > KOREAN_SYLLABLE_LENGTH || !KOREAN_SYLLABLE.test(text)) && query[i].koreanKey === first + second) addPair(KOREAN_ROMANISATION_SIMILARITY, i, 1, j, j + 1);
    }
  }
}

/** Whether strings of these lengths can be JOINED_FLOOR similar: checked before building a joined string. */
function mayJoin(a: number, b: number): boolean {
  return Math.abs(a - b) <= (1 - JOINED_FLOOR) * Math.max(a, b);
}

/**
 * Whether two tokens of one length differ only in vowels, an "a" against another ("sung"/"sang", "chol"/"chal"):
 * another Korean syllable, not a romanisation or typo of it. No romanisation writes "a" for another vowel, whereas
 * ŏ is written o, u or eo ("hyon"/"hyun", "chol"/"chul"), so those are left to the similarity and koreanKey.
 */
function otherVowel(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let aAgainstOther = false;
  for (let k = 0; k < a.length; k++) {
    if (a[k] === b[k]) continue;
    if (!VOWEL.test(a[k]) || !VOWEL.test(b[k])) return false;
    if ((a[k] === 'a') !== (b[k] === 'a')) aAgainstOther = true;
  }
  return aAgainstOther;
}

/** Similarity of two tokens of one length that differ only in vowels as a typo: 1 − changes / length within the budget. */
function vowelTypoSimilarity(a: string, b: string): number {
  let changes = 0;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) changes++;
  return changes <= allowedEdits(a.length) ? 1 - changes / a.length : 0;
}

/** How many middle names, patronymics, ancestors and second family names the listed tokens from..to give. */
function optionalPartsGiven(optional: ArrayLike<number>, from: number, to: number): number {
  let count = 0;
  for (let k = from; k < to; k++) if (optional[k] !== OptionalPart.No) count++;
  return count;
}

function listedTokenWeight(index: ScreeningIndex, position: number): number {
  return index.weight[index.nameTokens[position]] * OPTIONAL_WEIGHT[index.nameTokenMiddle[position]];
}

/**
 * Aligns query tokens with a listed name's tokens (best pairs first; two neighbours on either side may join) and
 * scores the name 0–1: the mean of the weighted share of the query matched and of the listed name matched, where
 * missing middle names weigh less and missing family/first names (or an organisation's words) more.
 * `explain` fills in which tokens paired, only for names that are reported.
 */
function scoreName(index: ScreeningIndex, query: QueryToken[], queryCjk: string, nameId: number, explain: boolean): NameHit | undefined {
  const start = index.nameTokenStart[nameId];
  const listedCount = Math.min(index.nameTokenStart[nameId + 1] - start, MAX_TOKENS);
  const queryCount = Math.min(query.length, MAX_TOKENS);
  const kind = index.entities[index.nameEntity[nameId]].names[index.nameSlot[nameId]].kind;
  const entityIndex = index.nameEntity[nameId];
  const nameSlot = index.nameSlot[nameId];
  const nameTokens = index.nameTokens;

  if (index.nameKind[nameId] === WEAK_ALIAS) {
    if (listedCount !== queryCount) return undefined;
    const listedText = [];
    for (let j = 0; j < listedCount; j++) listedText.push(index.tokens[nameTokens[start + j]]);
    if (query.map((q) => q.text).sort().join(' ') !== listedText.sort().join(' ')) return undefined;
    return {
      entityIndex, nameSlot, kind, score: WEAK_ALIAS_EXACT_SCORE,
      pairings: explain ? query.map((q) => ({ query: q.text, matched: q.text, similarity: 1 })) : [],
      unmatchedQuery: [], unmatchedListed: [],
    };
  }

  const isPerson = index.entities[entityIndex].type === 'person';
  const korean = index.koreanNames.has(nameId);
  pairCount = 0;
  for (let i = 0; i < queryCount; i++) {
    const { similar, initial, text } = query[i];
    for (let j = 0; j < listedCount; j++) {
      const listed = index.tokens[nameTokens[start + j]];
      // Initials stand for a person's names; an organisation's one letter ("S. GROUP AIRLINES") is a word of its own.
      if (!isPerson && (text.length === 1) !== (listed.length === 1)) continue;
      const s = similar.get(nameTokens[start + j]);
      if (s !== undefined && korean && s < 1 && text.length <= KOREAN_SYLLABLE_LENGTH && listed.length <= KOREAN_SYLLABLE_LENGTH
        && query[i].koreanKey !== index.koreanKeyOf.get(nameTokens[start + j]) && otherVowel(text, listed)) {
        // Another syllable, or a typo: it counts as a typo only, without the lift of a sound-alike.
        const typo = vowelTypoSimilarity(text, listed);
        if (typo > 0) addPair(typo, i, 1, j, NO_SECOND);
        continue;
      }
      if (s !== undefined) addPair(s, i, 1, j, NO_SECOND);
      else if ((initial || listed.length === 1) && listed.charCodeAt(0) === text.charCodeAt(0) && /[a-z]/.test(listed[0]) && !isWeakToken(listed)) {
        addPair(INITIAL_SIMILARITY, i, 1, j, NO_SECOND);
      }
    }
  }
  for (let i = 0; i + 1 < queryCount; i++) {
    const joined = query[i].joinedWithNext;
    for (let j = 0; j < listedCount; j++) {
      const other = index.tokens[nameTokens[start + j]];
      if (other.charCodeAt(0) !== joined.charCodeAt(0) || !mayJoin(joined.length, other.length)) continue;
      const s = joinedSpellingSimilarity(joined, other, query[i].text, query[i + 1].text);
      if (s >= JOINED_FLOOR) addPair(s, i, 2, j, NO_SECOND);
    }
  }
  // A query word may be two listed parts written together, in either order ("vladimirputin" for "PUTIN, Vladimir"),
  // also in the Pinyin of listed Wade-Giles syllables ("meixiang" for "Mei Hsiang").
  for (let j = 0; j < listedCount; j++) {
    const first = index.tokens[nameTokens[start + j]];
    const firstPinyin = index.pinyinOf.get(nameTokens[start + j]);
    for (let k = 0; k < listedCount; k++) {
      if (k === j) continue;
      const second = index.tokens[nameTokens[start + k]];
      addJoinedListed(query, queryCount, first, second, j, k, 1);
      if (second === AIRLINE_WORD_FOLDED) addJoinedListed(query, queryCount, first, 'air', j, k, 1);
      const secondPinyin = index.pinyinOf.get(nameTokens[start + k]);
      if (!firstPinyin && !secondPinyin) continue;
      for (const firstReading of [first, ...(firstPinyin ?? [])]) {
        for (const secondReading of [second, ...(secondPinyin ?? [])]) {
          if (firstReading !== first || secondReading !== second) addJoinedListed(query, queryCount, firstReading, secondReading, j, k, ROMANISATION_SIMILARITY);
        }
      }
    }
  }
  if (korean) addJoinedKorean(index, query, queryCount, start, listedCount);
  for (let p = 0; p < pairCount; p++) pairOrder[p] = p;
  // Insertion sort: a handful of pairs, no allocation.
  for (let p = 1; p < pairCount; p++) {
    const current = pairOrder[p];
    let k = p - 1;
    while (k >= 0 && pairSimilarity[pairOrder[k]] < pairSimilarity[current]) {
      pairOrder[k + 1] = pairOrder[k];
      k--;
    }
    pairOrder[k + 1] = current;
  }

  queryUsed.fill(0, 0, queryCount);
  queryPartner.fill(-1, 0, queryCount);
  listedUsed.fill(0, 0, listedCount);
  let queryMatched = 0;
  let listedMatched = 0;
  let strongPairs = 0;
  let bestStrongSimilarity = 0;
  /** The query word and listed word of the last distinctive pair ('' for a join): of the only one when strongPairs is 1. */
  let strongQuery1 = '';
  /** Whether every distinctive pair is of common names (see ScreeningIndex.common), and whether one pairs a short form. */
  let allCommon = true;
  let shortForm = false;
  /** Rarity over its spellings (spellingWeight) of the rarest distinctive listed part paired, initials aside. */
  let rarestPaired = 0;
  /** Whether an initial is paired, on either side. */
  let initialPaired = false;
  /** Whether a distinctive pair is spelt otherwise than listed (another romanisation, a sound-alike, a typo), initials aside. */
  let respelt = false;
  let strongListed1 = '';
  /** Whether a common query name is paired only by sound with a listed spelling hardly anyone else is listed under. */
  let commonHeardAsOneOff = false;
  /** Whether a distinctive pair is spelt as listed, initials aside. */
  let spelledAsListed = false;
  let respeltPairs = 0;
  /** Whether a sheikh (see SHEIKH) is paired, on either side, and whether another distinctive pair is respelt. */
  let sheikhPaired = false;
  let respeltBesideSheikh = false;
  // Halfway to the next count, so that the float weights of exactly ONE_OFF_SPELLING_NAMES names pass.
  const oneOffWeight = Math.log(1 + index.nameEntity.length / (ONE_OFF_SPELLING_NAMES + 0.5));
  const pairings: TokenPairing[] = [];
  for (let p = 0; p < pairCount; p++) {
    const shape = pairShape[pairOrder[p]];
    const queryFrom = shape & 0xff;
    const queryLength = (shape >> 8) & 0xff;
    const listedFirst = (shape >> 16) & 0xff;
    const listedSecond = (shape >> 24) & 0xff;
    const joinedListed = listedSecond !== NO_SECOND;
    if (queryUsed[queryFrom] || (queryLength === 2 && queryUsed[queryFrom + 1])) continue;
    if (listedUsed[listedFirst] || (joinedListed && listedUsed[listedSecond])) continue;
    const similarity = Math.min(1, pairSimilarity[pairOrder[p]]);
    let queryWeight = 0;
    let listedWeight = 0;
    let strongQueryTokens = 0;
    let strongListedTokens = 0;
    for (let k = queryFrom; k < queryFrom + queryLength; k++) {
      queryUsed[k] = 1;
      queryWeight += query[k].weight;
      if (!query[k].weak) strongQueryTokens++;
    }
    if (queryLength === 1 && !joinedListed) queryPartner[queryFrom] = listedFirst;
    for (const k of joinedListed ? [listedFirst, listedSecond] : [listedFirst]) {
      listedUsed[k] = 1;
      listedSimilarity[k] = similarity;
      listedWeight += listedTokenWeight(index, start + k);
      if (!isWeakToken(index.tokens[nameTokens[start + k]])) {
        strongListedTokens++;
        // A pair is common when either side is ("Mohamed" for a listed "Mahamat" says no more than "Mohamed"); an
        // initial's pairing is priced by its weight and says nothing of how common the name is.
        const initialPair = index.tokens[nameTokens[start + k]].length === 1 || query[queryFrom].text.length === 1;
        if (!initialPair && !index.common[nameTokens[start + k]] && !(queryLength === 1 && query[queryFrom].common)) allCommon = false;
        if (initialPair) initialPaired = true;
        else rarestPaired = Math.max(rarestPaired, index.spellingWeight[nameTokens[start + k]]);
        if (!initialPair && similarity < 1) respelt = true;
        if (!initialPair && similarity >= 1) spelledAsListed = true;
        if (!initialPair && similarity < 1) respeltPairs++;
        const listedSheikh = SHEIKH.test(index.tokens[nameTokens[start + k]]);
        if (listedSheikh || (queryLength === 1 && SHEIKH.test(query[queryFrom].text))) sheikhPaired = true;
        // A sheikh heard as another listed name ("sheikh"/"shawakh") is a respelt part like any other.
        if (!listedSheikh && !initialPair && similarity < 1) respeltBesideSheikh = true;
        if (!initialPair && queryLength === 1 && !joinedListed && similarity < SOUND_ALIKE_BELOW && query[queryFrom].common
          && index.weight[nameTokens[start + k]] >= oneOffWeight) commonHeardAsOneOff = true;
      }
    }
    queryMatched += similarity * queryWeight;
    listedMatched += similarity * listedWeight;
    // A join covers as many name parts as it has words on its longer side ("vladimirputin" ~ "putin vladimir").
    if (strongQueryTokens > 0) {
      strongPairs += Math.max(strongQueryTokens, strongListedTokens);
      bestStrongSimilarity = Math.max(bestStrongSimilarity, similarity);
      if (queryLength === 1 && !joinedListed && isShortFormPair(query[queryFrom].text, index.tokens[nameTokens[start + listedFirst]])) shortForm = true;
      strongQuery1 = queryLength === 1 && !joinedListed ? query[queryFrom].text : '';
      strongListed1 = index.tokens[nameTokens[start + listedFirst]];
    }
    if (explain) {
      pairings.push({
        query: query.slice(queryFrom, queryFrom + queryLength).map((q) => q.text).join(' '),
        matched: (joinedListed ? [listedFirst, listedSecond] : [listedFirst]).map((k) => index.tokens[nameTokens[start + k]]).join(' '),
        similarity: Math.round(similarity * 1000) / 1000,
      });
    }
  }
  if (strongPairs === 0 || chainOrderBroken(index, query, queryCount, start) || listedChainOrderBroken(index, query, queryCount, start, listedCount)) return undefined;
  // An organisation's every distinctive word identifies it ("PIONEER LOGISTICS" is not "Pioneer Golden
  // Logistics"), whereas a person's extra query names may be middle names the list does not have.
  // So is each syllable of a name made of syllables ("WEI, Zhao" is not "Wei Bo Zhao").
  const everyPartCounts = !isPerson || isSyllabicName(index, start, listedCount);
  let queryTotal = 0;
  let strongQuery = 0;
  // A person's middle names, patronymics and second family names the listed name lacks count as the listed
  // name's missing ones do: "Viktor Feliksovich Vekselberg" is "VEKSELBERG, Viktor".
  const queryCompound = isPerson && !everyPartCounts ? secondFamilySaidLast(index, query, queryCount, start) : -1;
  let patronymicsAdded = 0;
  const extraOptional: number[] = [];
  for (let i = 0; i < queryCount; i++) {
    const optional = i === queryCompound ? OptionalPart.SecondFamily : query[i].optional;
    if (isPerson && !everyPartCounts && !queryUsed[i] && optional !== OptionalPart.No) {
      strongQuery++;
      // A patronymic says only the father's given name, which a list writing the name short leaves open too.
      const patronymic = optional === OptionalPart.Middle && isPatronymic(query[i].text);
      if (patronymic) patronymicsAdded++;
      const share = patronymic ? OPTIONAL_WEIGHT[optional] : EXTRA_OPTIONAL_WEIGHT[optional];
      queryTotal += query[i].weight * share;
      extraOptional.push(query[i].weight * share);
      continue;
    }
    queryTotal += query[i].weight;
    if (query[i].weak) continue;
    strongQuery++;
    if (everyPartCounts && !queryUsed[i]) queryTotal += query[i].weight * MISSING_CORE_PENALTY;
  }
  const swap = familyStandIn(index, start, listedCount);
  let listedTotal = index.nameWeight[nameId];
  if (swap) {
    // The second family name takes half the first one's place; the first, missing, still counts as missing.
    const [first, second] = swap;
    const shift = STAND_IN_SHARE * (1 - OPTIONAL_WEIGHT[OptionalPart.SecondFamily]);
    const secondWeight = index.weight[nameTokens[start + second]];
    listedMatched += listedSimilarity[second] * secondWeight * shift;
    listedTotal += (secondWeight - index.weight[nameTokens[start + first]]) * shift;
  }
  const [nisbaDropped, given] = isPerson ? nisbaStandIn(index, nameId) : NO_STAND_IN;
  if (nisbaDropped >= 0) {
    // "Saddam Hussein" for "SADDAM HUSSEIN AL-TIKRITI": the standing-in given name counts in full, the nisba as an ancestor.
    const givenShift = index.weight[nameTokens[start + given]] - listedTokenWeight(index, start + given);
    listedMatched += listedSimilarity[given] * givenShift;
    listedTotal += givenShift - index.weight[nameTokens[start + nisbaDropped]] * (1 - MINOR_NAME_WEIGHT);
  }
  const compound = isPerson && !everyPartCounts && nisbaDropped < 0 ? listedSecondFamilySaidLast(index, nameId, start, listedCount) : -1;
  if (compound >= 0) {
    // "Nicolas Maduro" for "Nicolás Maduro Moros": the part before the last is the family name, counted in
    // full; the last one, missing, is the second family name.
    const familyShift = index.weight[nameTokens[start + compound - 1]] * (1 - OPTIONAL_WEIGHT[OptionalPart.Middle]);
    listedMatched += listedSimilarity[compound - 1] * familyShift;
    listedTotal += familyShift - index.weight[nameTokens[start + compound]] * (1 - OPTIONAL_WEIGHT[OptionalPart.SecondFamily]);
  }
  let strongListed = 0;
  let missingCore = 0;
  let missingCoreWords = 0;
  const missingOptional: number[] = [];
  // A listed name read without the title it opens its given names with ("GHASEMI, Seyyed Reza" as "GHASEMI, Reza").
  const titleLeftOut = index.titleLeftOutNames.has(nameId);
  for (let j = 0; j < listedCount; j++) {
    const weight = index.weight[nameTokens[start + j]];
    if (weight === WEAK_TOKEN_WEIGHT) continue;
    strongListed++;
    if (listedUsed[j]) continue;
    if (j === nisbaDropped || j === compound) missingOptional.push(weight * MINOR_NAME_WEIGHT);
    else if (!index.nameTokenMiddle[start + j]) {
      missingCore += weight * MISSING_CORE_PENALTY;
      missingCoreWords++;
    }
    else if (isPerson) missingOptional.push(listedTokenWeight(index, start + j));
  }
  // Only the heaviest left-out middle names count: "Ali al-Tikriti" for "AL-TIKRITI, Ali
  // Hassan al-Majid" leaves out a chain, not three people's worth of evidence.
  if (missingOptional.length > MISSING_OPTIONAL_COUNTED) {
    missingOptional.sort((a, b) => b - a);
    for (let k = MISSING_OPTIONAL_COUNTED; k < missingOptional.length; k++) listedTotal -= missingOptional[k];
  }
  // Likewise only the heaviest of the query's middle names, patronymics, ancestors and second family names the listed
  // name lacks counts, when the listed name leaves out none of its own: "Joaquín Archivaldo Guzmán Loera" for a listed
  // "Joaquín Guzmán", "Osama bin Mohammed bin Awad bin Laden" for "Osama bin Laden". The query is the fuller name.
  // Not when another of the person's listed names gives such parts: the query's may then contradict them.
  const partsGivenElsewhere = extraOptional.length > 0 && index.namesWithFullerNameBeside.has(nameId);
  const shortFormOnly = missingOptional.length === 0 && !partsGivenElsewhere;
  if (shortFormOnly && extraOptional.length > MISSING_OPTIONAL_COUNTED) {
    extraOptional.sort((a, b) => b - a);
    for (let k = MISSING_OPTIONAL_COUNTED; k < extraOptional.length; k++) queryTotal -= extraOptional[k];
  }
  // A patronymic the query adds to a listed name that leaves out no middle name of its own is no leeway below: the
  // press writes "Timur Ivanov" for "Timur Vadimovich Ivanov" either way round, while a listed patronymic left out
  // beside it ("KUZNETSOV, Dmitry Vadimovich" for "Dmitry Anatolyevich Kuznetsov") may be another father's son.
  const patronymicsAddedFreely = shortFormOnly ? patronymicsAdded : 0;
  let score = (queryMatched / queryTotal + listedMatched / (listedTotal + missingCore)) / 2;
  if (strongPairs === 1 && (strongQuery > 1 || strongListed > 1)) score *= SINGLE_TOKEN_FACTOR;
  // A person's short alias met by a query that adds parts, while another of the person's names gives its own: the
  // fuller name is the one to compare ("Dokka Ruslanovich Umarov" is not the "Dokka Umarov" of "DOKU KHAMATOVICH UMAROV").
  else if (extraOptional.length > 0 && partsGivenElsewhere) score *= SINGLE_TOKEN_FACTOR;
  // An organisation's words are written, not heard: one found only by its sound ("Paula Ruiz" ~ "POLA RAIZ OOO")
  // is as weak as one word found.
  else if (!isPerson && bestStrongSimilarity < ORGANISATION_SPELLING_FLOOR) score *= SINGLE_TOKEN_FACTOR;
  // A short brand word one letter off is another brand ("Orlen" is not "ORLAN", "Posco" not "PASCO").
  // Another romanisation of it ("Vagner" for "Wagner") still is the same word, and a group without a legal form
  // is written in many ("Al-Qaida", "Al Qaeda").
  else if (!isPerson && strongPairs === 1 && bestStrongSimilarity < 1 && strongQuery1.length > 0 && strongQuery1.length <= SHORT_BRAND_LENGTH
    && !sameFoldedSpelling(strongQuery1, strongListed1) && namesCompany(index, query, queryCount, start, listedCount)) score *= SINGLE_TOKEN_FACTOR;
  // An organisation with one of its words replaced by another is another organisation ("KOREA HEUNGJIN TRADING
  // COMPANY" is not "KOREA MAPLE TRADING COMPANY"): a word left out or added alone is only weighed by rarity.
  if (!isPerson && missingCoreWords > 0 && strongQuery > strongPairs) score *= SUBSTITUTION_FACTOR;
  // A person's match made of common names only ("Robert Wilson", "Mohamed Salah") says little by itself: if it
  // also needs leeway (a short form, a query part the listed name lacks, the parts said in another order, a second
  // family name read as left out: "Louis Martin" for "LUIS MARTIN CAMARENA", a syllable of a Korean or Pinyin name
  // left out: "Su Yan" for "YAN, Su Xuan", unless an initial stands for the given name: "Y. Kim" for "KIM, Yong
  // Su"; a short given name of another language left out is a middle name: "John Lee" for "LEE, John Ka-chiu",
  // "Syed Raza" for "RAZA, Syed Ali"; a title the list writes before the given names left out: "Reza Ghasemi" for
  // "GHASEMI, Seyyed Reza") it is as weak as a one-part match; a
  // nisba read as left out is damped by how common those names are on the lists, in full when also respelt. A listed
  // middle name left out is no leeway here (the press writes "Dmitry Kuznetsov" for "KUZNETSOV, Dmitry
  // Vadimovich"), nor is another romanisation alone of a listed name ("Said"/"Saeed"; of an alias it is, below).
  if (isPerson && allCommon) {
    if (shortForm || titleLeftOut || strongPairs < strongQuery - patronymicsAddedFreely || compound >= 0 || saidOutOfOrder(index, query, queryCount, start)
      || (strongPairs < strongListed && !initialPaired && isSyllableBySyllableName(index, nameId, start, listedCount))) score *= SINGLE_TOKEN_FACTOR;
    else if (nisbaDropped >= 0) score *= respelt ? SINGLE_TOKEN_FACTOR : nisbaDroppedFactor(rarestPaired);
    // An alias made of common names, met only in another spelling ("Muhammad Usman" for the alias "OSMAN,
    // Mohamed"): an alias is one more way of writing the person, so another spelling of it is leeway on leeway.
    // A weak alias even more so: its list rates it low.
    else if (respelt && (kind === 'alias' || kind === 'weak_alias')) score *= SINGLE_TOKEN_FACTOR;
    // A common name heard as a listed spelling only one or two names have ("Reza Ahmadi" for "AMIDI, Reza"): the
    // rare listed part is met by no more than a common name's sound, so the match rests on common names alone. A
    // listed spelling many names share ("Daud", "Saeed") is a romanisation the press uses too, and stays.
    else if (commonHeardAsOneOff) score *= SINGLE_TOKEN_FACTOR;
    // A long name met on common names alone, none spelt as listed, leaving out more middle names than count
    // ("Mohamed Salah" for "SALLEH ADOUM KETTE, Mahamat"): two respelt common names say little of a four-part name.
    // One part spelt as listed is evidence enough ("Mohamed Iusuf" for "YUSUF, Mohamed Mire Ali").
    else if (!spelledAsListed && missingOptional.length > MISSING_OPTIONAL_COUNTED) score *= SINGLE_TOKEN_FACTOR;
  }
  // A chain with one ancestor skipped, two of the parts only in other spellings: see ancestorSkipped.
  if (isPerson && respeltPairs >= SKIPPED_ANCESTOR_RESPELT && ancestorSkipped(index, query, queryCount, start, listedCount)) score *= SINGLE_TOKEN_FACTOR;
  // A weak alias scored as a full name (see isFullName) that the query needs a part more than to meet ("Abdul Kadir
  // Ansari" for the low-quality "ABDULKADIR"): a name its list rates low, matched with leeway, is a one-part match.
  if (isPerson && kind === 'weak_alias' && strongPairs < strongQuery) score *= SINGLE_TOKEN_FACTOR;
  // Sheikh is a title as much as a name part, and a frequent South Asian family name: a match on it and one other
  // part that also needs leeway is a one-part match: the other part respelt ("Mohammed Sheikh" for "AL-SHAYKH,
  // Muhammad"), two listed parts or more left out ("Ali Sheikh" for "Ali, Sheikh Hassan Dahir Aweys"), or the
  // parts said in another order, the family name Sheikh for a title ("Adnan Shaikh" for "AL-HAMIDAWI, Shaykh 'Adnan").
  // The title and one name as listed stay ("Sheikh Aasi" for "AASI, Sheikh Yusuf").
  if (isPerson && sheikhPaired && strongPairs <= 2
    && (respeltBesideSheikh || strongListed - strongPairs >= 2 || saidOutOfOrder(index, query, queryCount, start))) score *= SINGLE_TOKEN_FACTOR;
  // Only with a part respelt: the press writes a kunya's son's name and family name without the "Abu" as listed
  // ("Muhammad al-Jawlani" for "AL-JAWLANI, Abu Muhammad").
  if (isPerson && respelt && kunyaParticleLeftOut(index, query, queryCount, start, listedCount)) score *= SINGLE_TOKEN_FACTOR;
  // A name read with al-Din apart is met only with its al-Din: "Safi" alone is another name than "Safi al-Din"
  // ("Hashem Ali Safi" is not "SAFIEDDINE, Hashem").
  if (index.alDinApartNames.has(nameId)) {
    for (let j = 0; j < listedCount; j++) {
      if (!listedUsed[j] && index.tokens[nameTokens[start + j]] === 'din') {
        score *= SINGLE_TOKEN_FACTOR;
        break;
      }
    }
  }
  // "X al-Din" is one name however it is written: met with nothing else, it is as weak as one word found
  // ("Muhammad Shamsuddin" is not the one-word "SHAMSUDDIN", read "shams al din").
  if (strongPairs > 1 && (strongQuery > 1 || strongListed > 1)) {
    const listedDin = alDinWords(listedCount, (j) => index.tokens[nameTokens[start + j]], (j) => listedUsed[j] === 1);
    if (listedDin.paired > 0 && strongPairs - listedDin.paired === 1) {
      const queryDin = alDinWords(queryCount, (i) => query[i].text, () => false).all;
      if (strongQuery - queryDin > 1 || strongListed - listedDin.all > 1) score *= SINGLE_TOKEN_FACTOR;
    }
  }
  if (isPerson && score < KNOWN_AS_SCORE && strongQuery >= 2 && !index.alDinApartNames.has(nameId) && knownByLaterNames(index, query, queryCount, start, listedCount)) score = KNOWN_AS_SCORE;
  // Father and son of one name: "Ferdinand Marcos Jr." is not "Ferdinand Marcos" (a query without Jr. may be either).
  // A father is written Sr. only beside his son, so a name listed without a generation may be the Sr. one
  // ("Christopher Kinahan Sr." for "KINAHAN, Christopher Vincent").
  if (isPerson) {
    const generation = generationOf(queryCount, (i) => query[i].text);
    const listedGeneration = generationOf(listedCount, (j) => index.tokens[nameTokens[start + j]]);
    if (generation && generation !== listedGeneration && !(generation === 'sr' && listedGeneration === '')) score *= SINGLE_TOKEN_FACTOR;
  }
  const listedCjk = queryCjk ? index.nameCjk.get(nameId) : undefined;
  if (listedCjk) score *= cjkAgreement(queryCjk, listedCjk);
  const unmatchedQuery: string[] = [];
  const unmatchedListed: string[] = [];
  if (explain) {
    for (let i = 0; i < queryCount; i++) if (!queryUsed[i]) unmatchedQuery.push(query[i].text);
    for (let j = 0; j < listedCount; j++) if (!listedUsed[j]) unmatchedListed.push(index.tokens[nameTokens[start + j]]);
  }
  return { entityIndex, nameSlot, kind, score: Math.min(1, score), pairings, unmatchedQuery, unmatchedListed };
}

/**
 * A person's name said in order with two family names ("Nicolás Maduro Moros", "Joaquín Guzmán Loera") whose last
 * one the other side leaves out: given `paired` the pairing of the side's parts, the position of that last part
 * when the first part and the one before the last are paired and the one before the last is not a common name
 * ("Mohammed Ali Hassan" is not "Mohammed Ali"), else -1.
 */
function secondFamilyPosition(count: number, paired: (k: number) => boolean, weak: (k: number) => boolean, pairedWeight: (k: number) => number): number {
  const last = count - 1;
  if (count < 3 || paired(last) || weak(last) || weak(last - 1) || !paired(0) || !paired(last - 1)) return -1;
  return pairedWeight(last - 1) > COMMON_WEIGHT ? last : -1;
}

/** The listed name's last part read as a second family name (see secondFamilyPosition), -1 when not. */
function listedSecondFamilySaidLast(index: ScreeningIndex, nameId: number, start: number, listedCount: number): number {
  for (let j = 0; j < listedCount; j++) if (index.nameTokenOrder[start + j] !== j) return -1;
  if (index.nameTokenMiddle[start + listedCount - 1] !== OptionalPart.No || index.nameTokenMiddle[start + listedCount - 2] !== OptionalPart.Middle) return -1;
  return secondFamilyPosition(
    listedCount, (j) => listedUsed[j] === 1, (j) => isWeakToken(index.tokens[index.nameTokens[start + j]]),
    (j) => index.spellingWeight[index.nameTokens[start + j]],
  );
}

/** The query's last part read as a second family name the listed name lacks (see secondFamilyPosition), -1 when not. */
function secondFamilySaidLast(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number): number {
  if (queryCount < 3 || query[queryCount - 2].optional !== OptionalPart.Middle || query.some((q) => q.afterComma)) return -1;
  return secondFamilyPosition(
    queryCount, (i) => queryUsed[i] === 1, (i) => query[i].weak,
    (i) => (queryPartner[i] >= 0 ? index.spellingWeight[index.nameTokens[start + queryPartner[i]]] : 0),
  );
}

const LEGAL_FORM_TOKENS = new Set(LEGAL_FORM_WORDS);

/** Whether the query or the listed name has a legal form: a company's name, not a group's or a movement's. */
function namesCompany(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number, listedCount: number): boolean {
  for (let i = 0; i < queryCount; i++) if (LEGAL_FORM_TOKENS.has(query[i].text)) return true;
  for (let j = 0; j < listedCount; j++) if (LEGAL_FORM_TOKENS.has(index.tokens[index.nameTokens[start + j]])) return true;
  return false;
}

/** The articles written between a name and its al-Din ("Nur al-Din", "Nur-ud-Din", "Nour el-Din"). */
const AL_DIN_ARTICLES = new Set(['al', 'el', 'ad', 'ud', 'ul', 'ed']);

/**
 * How many of a name's parts are the "din" of a name compounded with al-Din ("stem al din": a stem, an article, din),
 * and how many of those are `paired` together with their stem: the din of such a name adds no name of its own.
 */
function alDinWords(count: number, partAt: (k: number) => string, used: (k: number) => boolean): { all: number; paired: number } {
  let all = 0;
  let paired = 0;
  for (let k = 2; k < count; k++) {
    if (partAt(k) !== 'din' || !AL_DIN_ARTICLES.has(partAt(k - 1))) continue;
    all++;
    if (used(k) && used(k - 2)) paired++;
  }
  return { all, paired };
}

/** Words that tell a generation of one family name apart, in their normalised forms. */
const GENERATIONS = new Map([['jr', 'jr'], ['junior', 'jr'], ['sr', 'sr'], ['senior', 'sr']]);

/** The generation a person's `count` name parts say ("jr", "sr"), '' for none. */
function generationOf(count: number, partAt: (k: number) => string): string {
  for (let k = 0; k < count; k++) {
    const generation = GENERATIONS.get(partAt(k));
    if (generation) return generation;
  }
  return '';
}

/** Whether every distinctive part of a listed person's name is a syllable of at most SYLLABLE_LENGTH letters. */
function isSyllabicName(index: ScreeningIndex, start: number, listedCount: number): boolean {
  let strong = 0;
  for (let j = 0; j < listedCount; j++) {
    const token = index.tokens[index.nameTokens[start + j]];
    if (isWeakToken(token)) continue;
    if (token.length > SYLLABLE_LENGTH) return false;
    strong++;
  }
  return strong >= 2;
}

/**
 * Whether a listed person's name is a Korean or Chinese one romanised syllable by syllable, so that one syllable of
 * its given name is another person's given name ("Su" is not "Su Xuan"): a Korean person's, or one whose every
 * distinctive part is a Pinyin syllable. Short names of other languages ("John", "Syed", "Ali") are whole names.
 */
function isSyllableBySyllableName(index: ScreeningIndex, nameId: number, start: number, listedCount: number): boolean {
  if (!isSyllabicName(index, start, listedCount)) return false;
  if (index.koreanNames.has(nameId)) return true;
  for (let j = 0; j < listedCount; j++) {
    const token = index.tokens[index.nameTokens[start + j]];
    if (!isWeakToken(token) && !isPinyinSyllable(token)) return false;
  }
  return true;
}

/**
 * A compound family name the query writes with its second name only ("Ismael Felix" for "REYNA FELIX, Ismael":
 * the maternal name some people go by): the positions of the unmatched first family name and of the matched
 * second one, or undefined.
 */
function familyStandIn(index: ScreeningIndex, start: number, listedCount: number): [number, number] | undefined {
  for (let second = 1; second < listedCount; second++) {
    if (!listedUsed[second] || index.nameTokenMiddle[start + second] !== OptionalPart.SecondFamily) continue;
    for (let first = second - 1; first >= 0; first--) {
      if (index.nameTokenMiddle[start + first] !== OptionalPart.No || isWeakToken(index.tokens[index.nameTokens[start + first]])) continue;
      return listedUsed[first] ? undefined : [first, second];
    }
  }
  return undefined;
}

/**
 * Whether the query names a person by the given names after a common first one, written in full ("Masood Azhar"
 * for "ALVI, Mohammad Masood Azhar" or "MOHAMMED MASOOD AZHAR ALVI"): every distinctive query word paired alone
 * and closely with a distinctive listed part, those parts following each other as the name is said, none of them
 * common, and the listed first given name (unpaired) common.
 */
function knownByLaterNames(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number, listedCount: number): boolean {
  let firstOrder = Infinity;
  let lastOrder = -1;
  let paired = 0;
  for (let i = 0; i < queryCount; i++) {
    if (query[i].weak) continue;
    const j = queryPartner[i];
    if (j < 0 || listedSimilarity[j] < KNOWN_AS_SIMILARITY || index.spellingWeight[index.nameTokens[start + j]] < DISTINCTIVE_WEIGHT) return false;
    const order = index.nameTokenOrder[start + j];
    firstOrder = Math.min(firstOrder, order);
    lastOrder = Math.max(lastOrder, order);
    paired++;
  }
  let first = -1;
  for (let j = 0; j < listedCount; j++) {
    const order = index.nameTokenOrder[start + j];
    const strong = !isWeakToken(index.tokens[index.nameTokens[start + j]]);
    if (order === 0) first = j;
    // A distinctive listed part between the paired ones breaks the run.
    if (strong && !listedUsed[j] && order > firstOrder && order < lastOrder) return false;
  }
  return paired >= 2 && first >= 0 && !listedUsed[first] && firstOrder > 0 && index.spellingWeight[index.nameTokens[start + first]] <= COMMON_WEIGHT;
}

/**
 * Whether the query, read as it is said (after a comma first), pairs the listed name's parts out of both the order
 * the listed name says them and the order it writes them ("KIM, Jong Un" may be written "Kim Jong Un"): "Mohamed
 * Salah" for "SALEH MOHAMMAD", "Hamid Mahmood" for "MAHMOUD HAMID" (another man's name and his father's). Listed
 * parts spelt alike stand for one another, so the query's first of them is the first in either order ("Issa Osman
 * Issa" is "ISSA, Issa Osman" said in order, whichever Issa the pairing took).
 */
function saidOutOfOrder(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number): boolean {
  const paired: number[] = [];
  for (const afterComma of [true, false]) {
    for (let i = 0; i < queryCount; i++) if (query[i].afterComma === afterComma && queryPartner[i] >= 0) paired.push(queryPartner[i]);
  }
  const inOrder = (rank: (j: number) => number): boolean => {
    const ranksOf = new Map<number, number[]>();
    for (const j of paired) pushTo(ranksOf, index.nameTokens[start + j], rank(j));
    for (const ranks of ranksOf.values()) ranks.sort((a, b) => b - a);
    let last = -1;
    for (const j of paired) {
      const next = ranksOf.get(index.nameTokens[start + j])!.pop()!;
      if (next < last) return false;
      last = next;
    }
    return true;
  };
  return !inOrder((j) => index.nameTokenOrder[start + j]) && !inOrder((j) => j);
}

const NO_STAND_IN: [number, number] = [-1, -1];

/**
 * Factor on a person matched by common given names only without the nisba of the listed chain ("Walid Hussein" for
 * "AL-JASIM, Walid Hussein"): the rarer on the lists the rarest of those names (`rarest`, its spellingWeight), the
 * less it is damped, from SINGLE_TOKEN_FACTOR at COMMON_WEIGHT to none at DISTINCTIVE_WEIGHT. A nisba follows
 * Arabic given names, and the lists hold enough Arabic names for their frequency there to be that among such names
 * ("Muhammad Ali" and "Ali Hasan" stay damped); for English or Russian names the lists are too few to tell, which
 * is why other leeway stays flat.
 */
function nisbaDroppedFactor(rarest: number): number {
  const rarity = Math.min(1, Math.max(0, (rarest - COMMON_WEIGHT) / (DISTINCTIVE_WEIGHT - COMMON_WEIGHT)));
  return SINGLE_TOKEN_FACTOR + (1 - SINGLE_TOKEN_FACTOR) * rarity;
}

/** Positions of a listed nisba the query lacks and of the given name it has that stands in for it (see nisbaAfterGivenNames). */
function nisbaStandIn(index: ScreeningIndex, nameId: number): [number, number] {
  const entry = index.nameNisba.get(nameId);
  if (!entry || listedUsed[entry.nisba]) return NO_STAND_IN;
  const given = entry.standIns.find((i) => listedUsed[i]);
  return given === undefined ? NO_STAND_IN : [entry.nisba, given];
}

/**
 * Whether the query says "X bin Y" where the listed name says Y before X (as said, given names first): "SALMAN BIN
 * MUHAMMAD" is Salman son of Muhammad, not Muhammad bin Salman.
 */
function chainOrderBroken(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number): boolean {
  for (let i = 1; i + 1 < queryCount; i++) {
    if (!CHAIN_PARTICLES.has(query[i].text)) continue;
    const son = queryPartner[i - 1];
    const father = queryPartner[i + 1];
    if (son >= 0 && father >= 0 && index.nameTokenOrder[start + son] > index.nameTokenOrder[start + father]) return true;
  }
  return false;
}

/**
 * Whether a query of three or more parts, each paired, names a listed chain said in order (no comma) with a part
 * skipped between two it says one after the other: "Mustafa Kamal Ibrahim" (Mustafa son of Kamal son of Ibrahim) for
 * "MOSTAFA KAMEL MOSTAFA IBRAHIM" names another grandfather, or leaves him out. Taken with SKIPPED_ANCESTOR_RESPELT
 * parts in other spellings it is too little to go on; a chain written as listed with one part left out stays a match.
 */
function ancestorSkipped(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number, listedCount: number): boolean {
  let strong = 0;
  for (let i = 0; i < queryCount; i++) {
    if (query[i].weak) continue;
    strong++;
    if (queryPartner[i] < 0) return false;
  }
  if (strong < 3) return false;
  for (let j = 0; j < listedCount; j++) if (index.nameTokenOrder[start + j] !== j) return false;
  let previous = -1;
  for (let i = 0; i < queryCount; i++) {
    if (query[i].weak) continue;
    const at = index.nameTokenOrder[start + queryPartner[i]];
    if (previous >= 0 && at > previous + 1) {
      for (let j = 0; j < listedCount; j++) {
        const order = index.nameTokenOrder[start + j];
        if (order > previous && order < at && !listedUsed[j] && !isWeakToken(index.tokens[index.nameTokens[start + j]])) return true;
      }
    }
    previous = at;
  }
  return false;
}

/** The particles of a kunya, "father/mother of": "Abu Abdalla" names a person by his son Abdalla. */
const KUNYA_PARTICLES = new Set(['abu', 'abou', 'umm']);

/**
 * Whether the particle of a kunya the listed name opens with is left out while the son's name after it is paired:
 * "Abdullah Al Harbi" is not "Abu Abdalla al-Harbi" (the father of an Abdalla), he may be the son. Inside a name
 * "Abu" may begin a family name ("SALAH ABU MOHAMED", see listedChainOrderBroken) and is not judged here, nor is a
 * query with a particle of its own.
 */
function kunyaParticleLeftOut(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number, listedCount: number): boolean {
  for (let i = 0; i < queryCount; i++) if (KUNYA_PARTICLES.has(query[i].text)) return false;
  for (let j = 0; j + 1 < listedCount; j++) {
    if (listedUsed[j] || index.nameTokenOrder[start + j] !== 0 || !KUNYA_PARTICLES.has(index.tokens[index.nameTokens[start + j]])) continue;
    if (listedUsed[j + 1] && index.nameTokenOrder[start + j + 1] === 1) return true;
  }
  return false;
}

/** Particles of a listed name whose neighbours' order tells who is whose son or father ("SALAH ABU MOHAMED"). */
const LISTED_CHAIN_PARTICLES = new Set([...CHAIN_PARTICLES, 'abu', 'abou', 'umm']);

/**
 * Whether the query names, without the particle, the two neighbours of a listed name's chain particle the other
 * way round: "Mohamed Salah" is not "SALAH ABU MOHAMED" (Salah, father of Mohamed), nor "Salman Muhammad"
 * "MUHAMMAD BIN SALMAN". A query written "FAMILY, Given" is said in another order and is not judged.
 */
function listedChainOrderBroken(index: ScreeningIndex, query: QueryToken[], queryCount: number, start: number, listedCount: number): boolean {
  if (query.some((q) => q.afterComma || LISTED_CHAIN_PARTICLES.has(q.text))) return false;
  for (let j = 1; j + 1 < listedCount; j++) {
    if (!LISTED_CHAIN_PARTICLES.has(index.tokens[index.nameTokens[start + j]]) || !listedUsed[j - 1] || !listedUsed[j + 1]) continue;
    const [before, after] = index.nameTokenOrder[start + j - 1] < index.nameTokenOrder[start + j + 1] ? [j - 1, j + 1] : [j + 1, j - 1];
    let beforeAt = -1;
    let afterAt = -1;
    for (let i = 0; i < queryCount; i++) {
      if (queryPartner[i] === before) beforeAt = i;
      if (queryPartner[i] === after) afterAt = i;
    }
    if (beforeAt >= 0 && afterAt >= 0 && afterAt < beforeAt) return true;
  }
  return false;
}

function weakWeightOf(query: QueryToken[]): number {
  let total = 0;
  for (const q of query) if (q.weak) total += q.weight;
  return total;
}

/**
 * The best-scoring listed name of each entity resembling `name`, best first. Candidates come from the index
 * (exact, phonetic and trigram neighbours of each distinctive query token, and joined neighbours); a query made
 * only of legal forms and particles ("CORP", "LIMITED") finds nothing. A Chinese name in Wade-Giles is also read
 * in Pinyin ("Mao Tse-tung" as "mao zedong"), whose hits count at ROMANISATION_SIMILARITY. A query that is one of
 * an organisation's well-known names ("FSB") is also searched as its others, whose near-equal listed
 * organisations count at KNOWN_ALIAS_SIMILARITY.
 */
export function searchNames(index: ScreeningIndex, name: string, minScore: number): NameHit[] {
  const best = new Map<number, NameHit>();
  const spellings = spellingsOf(name);
  for (const { text, factor, vessel, country, organisation } of spellings) {
    for (const hit of searchSpelling(index, text, minScore / factor, vessel, country, organisation)) {
      const scored = factor === 1 ? hit : { ...hit, score: hit.score * factor };
      if (scored.score >= minScore && scored.score > (best.get(scored.entityIndex)?.score ?? 0)) best.set(scored.entityIndex, scored);
    }
  }
  for (const { text, factor, vessel, organisation } of spellings) {
    if (factor !== 1 || vessel || organisation) continue;
    for (const hit of [...searchAcronym(index, text), ...searchSpelledOut(index, text)]) {
      if (hit.score >= minScore && hit.score > (best.get(hit.entityIndex)?.score ?? 0)) best.set(hit.entityIndex, hit);
    }
    for (const alias of knownOrganisationAliases(text)) {
      for (const hit of searchSpelling(index, alias, Math.max(KNOWN_ALIAS_FLOOR, minScore / KNOWN_ALIAS_SIMILARITY))) {
        const score = hit.score * KNOWN_ALIAS_SIMILARITY;
        if (index.entities[hit.entityIndex].type !== 'organization' || score < minScore || score <= (best.get(hit.entityIndex)?.score ?? 0)) continue;
        best.set(hit.entityIndex, {
          ...hit, score, pairings: [{ query: text, matched: alias, similarity: KNOWN_ALIAS_SIMILARITY }], unmatchedQuery: [],
        });
      }
    }
    for (const replaced of withLeadingNameReplaced(text)) {
      for (const hit of searchSpelling(index, replaced, minScore / KNOWN_ALIAS_SIMILARITY)) {
        const score = hit.score * KNOWN_ALIAS_SIMILARITY;
        // The words the query adds to the name it opens with must be the listed name's too ("FSB Bank" is not the FSB).
        if (index.entities[hit.entityIndex].type !== 'organization' || !hit.unmatchedQuery.every(isWeakToken)) continue;
        if (score < minScore || score <= (best.get(hit.entityIndex)?.score ?? 0)) continue;
        best.set(hit.entityIndex, { ...hit, score });
      }
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/**
 * One way a query is searched; `vessel`: a reading only a vessel's name may have, its hits kept for vessels alone;
 * `country`: the query without the country it closes with (ISO code), its hits kept for organisations of that country;
 * `organisation`: a reading only an organisation's name may have, its hits kept for organisations.
 */
interface Spelling { text: string; factor: number; vessel?: 'name' | 'syllablesJoined'; country?: string; organisation?: boolean }

/**
 * The ways a query is searched: as written, in its Pinyin reading when it reads as Wade-Giles (its hits count at
 * ROMANISATION_SIMILARITY), without a leading title, without a nickname in quotes and each name of "X alias Y" alone
 * (see namesWrittenTogether), without a closing parenthetical ("Islamic Movement of
 * Uzbekistan (IMU)", "Stena Impero (tanker)"), with a closing Roman numeral one as a digit ("Grace I"), and as
 * only a vessel may be read: without what it is said to be ("Sandino tanker") and with its syllables written as one
 * word ("Chon Ma San" for "CHONMASAN").
 */
function spellingsOf(name: string): Spelling[] {
  const spellings: Spelling[] = [{ text: name, factor: 1 }];
  const reading = pinyinReading(name);
  if (reading) spellings.push({ text: reading, factor: ROMANISATION_SIMILARITY });
  for (const other of [withoutLeadingTitle(name), withoutClosingParenthetical(name), withClosingNumeralOne(name), withAlDinApart(name), ...namesWrittenTogether(name)]) {
    if (other) spellings.push({ text: other, factor: 1 });
  }
  const withoutKind = withoutClosingVesselKind(name) ?? withoutLeadingVesselKind(name);
  if (withoutKind) spellings.push({ text: withoutKind, factor: 1, vessel: 'name' });
  const vesselWords = vesselNameReading(withoutKind ?? name);
  if (vesselWords) spellings.push({ text: vesselWords, factor: 1, vessel: 'name' });
  // Two syllables written apart already pair with the listed word they make (see scoreName's joined neighbours).
  const syllablesJoined = withVesselSyllablesJoined(withClosingNumeralOne(withoutKind ?? name) ?? withoutKind ?? name, 3);
  if (syllablesJoined) spellings.push({ text: syllablesJoined, factor: 1, vessel: 'syllablesJoined' });
  const withoutCountry = withoutClosingCountry(name);
  if (withoutCountry) spellings.push({ text: withoutCountry.reading, factor: PLACE_LEFT_OUT_SIMILARITY, country: withoutCountry.country });
  const inEnglish = withKindWordsInEnglish(name);
  if (inEnglish) spellings.push({ text: inEnglish, factor: READ_IN_OTHER_WORDS_SIMILARITY, organisation: true });
  const shortCountries = withShortCountryNames(name);
  if (shortCountries) spellings.push({ text: shortCountries, factor: READ_IN_OTHER_WORDS_SIMILARITY, organisation: true });
  return spellings;
}

/**
 * Entities the index proposes for `name` before any name is scored (the candidate generation searchNames scores),
 * acronyms aside: a listed name not proposed here cannot be found whatever the scorer says. For measuring.
 */
export function proposedEntities(index: ScreeningIndex, name: string, minScore: number): Set<number> {
  const proposed = new Set<number>();
  for (const { text, factor, vessel, country, organisation } of spellingsOf(name)) {
    for (const nameId of candidateNames(index, queryTokens(index, text), minScore / factor)) {
      const entity = index.entities[index.nameEntity[nameId]];
      if ((!vessel || entity.type === 'vessel') && (!(country || organisation) || entity.type === 'organization')) proposed.add(index.nameEntity[nameId]);
    }
    if (factor !== 1 || vessel || organisation) continue;
    for (const alias of knownOrganisationAliases(text)) {
      for (const nameId of candidateNames(index, queryTokens(index, alias), KNOWN_ALIAS_FLOOR)) proposed.add(index.nameEntity[nameId]);
    }
    for (const replaced of withLeadingNameReplaced(text)) {
      for (const nameId of candidateNames(index, queryTokens(index, replaced), minScore / KNOWN_ALIAS_SIMILARITY)) proposed.add(index.nameEntity[nameId]);
    }
  }
  return proposed;
}

/**
 * Names holding two neighbours this query word writes together, also as a Korean key ("pyeongchol") or, for a
 * hyphenated name, in another romanisation ("ahmadinezhad" for "Ahmadi-Nejad").
 */
function joinedNames(index: ScreeningIndex, token: QueryToken): number[] | undefined {
  const found = [
    index.byJoined.get(token.text),
    token.koreanKey === token.text ? undefined : index.byJoined.get(token.koreanKey),
    token.text.length >= MIN_HYPHENATED ? index.byHyphenatedKey.get(transliterationKey(token.text)) : undefined,
  ].filter((names) => names !== undefined);
  return found.length > 1 ? found.flat() : found[0];
}

/**
 * Whether a match on a vessel's syllables written together pairs them alike once Korean consonants are folded
 * ("baekmagang"/"paekmagang"): one changed vowel is another ship ("chonmusan" is not "chonmasan"), which the
 * syllables compared apart would have told.
 */
function joinedSyllablesAgree(hit: NameHit): boolean {
  return hit.pairings.every(({ query, matched, similarity }) => similarity === 1 || koreanKey(query.replaceAll(' ', '')) === koreanKey(matched.replaceAll(' ', '')));
}

/**
 * Whether a match with a place left out still rests on the brand, the word a Chinese register writes after the
 * place ("Hangzhou Hikvision Digital Technology"): the reading's first word, held by hardly any listed name and
 * paired as listed. An industry's words ("Petroleum Company" is not "Sichuan Petroleum Company") and an ordinary
 * phrase the place alone made a name of ("Ocean Fishing Co Ltd" is not "Dalian Ocean Fishing") are not brands.
 * With a closing country left out (`anyWord`) the brand may stand anywhere ("Bank Mellat", "Melli Bank"): "Central
 * Bank" is not "Central Bank of Iran".
 */
function brandWordPaired(index: ScreeningIndex, nameId: number, hit: NameHit, anyWord = false): boolean {
  const start = index.nameTokenStart[nameId];
  const words = Array.from(index.nameTokens.subarray(start, index.nameTokenStart[nameId + 1]), (t) => index.tokens[t]).filter((word) => !isWeakToken(word));
  const floor = anyWord ? COMMON_WEIGHT : BRAND_WEIGHT;
  const brands = (anyWord ? words : words.slice(0, 1)).filter((word) => index.spellingWeight[index.vocabulary.get(word)!] > floor);
  return hit.pairings.some(({ matched, similarity }) => similarity >= ORGANISATION_SPELLING_FLOOR && matched.split(' ').some((word) => brands.includes(word)));
}

/**
 * `vessel`: the spelling is read as a vessel's name only (see spellingsOf). A listed organisation's name read
 * without its opening place (placeLeftOutNames) or closing country (countryLeftOutNames) counts at
 * PLACE_LEFT_OUT_SIMILARITY and must be met on its brand (brandWordPaired). A Chinese place only on the listed side:
 * the query's is part of the name. A query's closing country (`country`, the spelling's factor gives the
 * similarity) only for an organisation the list may place there (see mayBeOwnCountry), met on its brand.
 */
function searchSpelling(index: ScreeningIndex, name: string, minScore: number, vessel?: Spelling['vessel'], country?: string, organisation?: boolean): NameHit[] {
  const query = queryTokens(index, name);
  const queryCjk = cjkCharacters(name);
  const bestByEntity = new Map<number, { nameId: number; score: number }>();
  for (const nameId of candidateNames(index, query, minScore)) {
    const entity = index.entities[index.nameEntity[nameId]];
    if (vessel && entity.type !== 'vessel') continue;
    if (country && (entity.type !== 'organization' || !mayBeOwnCountry(entity, country))) continue;
    if (organisation && entity.type !== 'organization') continue;
    const hit = scoreName(index, query, queryCjk, nameId, false);
    const listedPlaceLeftOut = index.placeLeftOutNames.has(nameId);
    const listedCountryLeftOut = index.countryLeftOutNames.has(nameId);
    const factor = listedPlaceLeftOut || listedCountryLeftOut ? PLACE_LEFT_OUT_SIMILARITY : index.translatedNames.has(nameId) || index.shortCountryNames.has(nameId) ? READ_IN_OTHER_WORDS_SIMILARITY : 1;
    const score = (hit?.score ?? 0) * factor;
    if (!hit || score < minScore) continue;
    if ((vessel === 'syllablesJoined' || index.syllablesJoinedNames.has(nameId)) && !joinedSyllablesAgree(scoreName(index, query, queryCjk, nameId, true)!)) continue;
    if (listedPlaceLeftOut && !brandWordPaired(index, nameId, scoreName(index, query, queryCjk, nameId, true)!)) continue;
    if ((listedCountryLeftOut || country) && !brandWordPaired(index, nameId, scoreName(index, query, queryCjk, nameId, true)!, true)) continue;
    const best = bestByEntity.get(hit.entityIndex);
    if (!best || score > best.score) bestByEntity.set(hit.entityIndex, { nameId, score });
  }
  return [...bestByEntity.values()]
    .sort((a, b) => b.score - a.score)
    .map(({ nameId, score }) => ({ ...(scoreName(index, query, queryCjk, nameId, true) as NameHit), score }));
}

/** The names worth scoring in full for a query, most index evidence first, at most MAX_CANDIDATES. */
function candidateNames(index: ScreeningIndex, query: QueryToken[], minScore: number): number[] {
  const strong = query.filter((q) => !q.weak);
  if (strong.length === 0) return [];
  const { evidence, touched } = scratch;
  touched.length = 0;
  // A name's score is at most (query coverage + 1) / 2, and its query coverage at most what the index saw
  // plus the weak tokens: names that cannot reach minScore are never scored.
  let queryWeight = 0;
  let strongWeight = 0;
  for (const q of query) {
    // A person's middle name the listed name lacks may count for little (see scoreName): not in the bound.
    if (q.optional === OptionalPart.No) queryWeight += q.weight;
    if (!q.weak) strongWeight += q.weight;
  }
  const floor = Math.max(MIN_EVIDENCE * strongWeight, (2 * minScore - 1) * queryWeight - weakWeightOf(query) - 1e-6);
  for (let i = 0; i + 1 < query.length; i++) {
    const amount = query[i].weight + query[i + 1].weight;
    const joined = query[i].joinedWithNext;
    const id = index.vocabulary.get(joined);
    if (id !== undefined) {
      const round = ++scratch.round;
      for (let p = index.postingStart[id]; p < index.postingStart[id + 1]; p++) credit(index.postings[p], amount, round, true);
    }
    if (joined.length >= MIN_HYPHENATED && isCompound(query[i].text, query[i + 1].text)) {
      // Two query words a listed part writes together in another romanisation ("Ahmadi-Nejad" for "Ahmadinezhad").
      const round = ++scratch.round;
      for (const other of index.byTransliteration.get(transliterationKey(joined)) ?? []) {
        const similarity = other === id ? 0 : transliterationSimilarity(joined, index.tokens[other]);
        if (similarity === 0) continue;
        for (let p = index.postingStart[other]; p < index.postingStart[other + 1]; p++) credit(index.postings[p], amount * similarity, round, true);
      }
    }
    // Two syllables a Korean name writes together, in another romanisation ("Jeong-eun" for "Jongun").
    const korean = index.byKoreanSyllable.get(query[i].koreanKey + query[i + 1].koreanKey);
    if (!korean) continue;
    const round = ++scratch.round;
    for (const other of korean) {
      for (let p = index.postingStart[other]; p < index.postingStart[other + 1]; p++) credit(index.postings[p], amount * KOREAN_ROMANISATION_SIMILARITY, round, true);
    }
  }
  // Rarest tokens first: once the tokens left could not lift a name never seen to the floor, the long posting
  // lists of common tokens ("mohammed", "obshchestvo") only add to names already seen.
  const ordered = strong.sort((a, b) => b.weight - a.weight);
  let remaining = 0;
  for (const token of ordered) remaining += token.weight * (joinedNames(index, token) ? 2 : 1);
  for (const token of ordered) {
    const admitNew = remaining >= floor;
    const round = ++scratch.round;
    for (const [id, similarity] of token.similar) {
      const amount = similarity * token.weight;
      for (let p = index.postingStart[id]; p < index.postingStart[id + 1]; p++) credit(index.postings[p], amount, round, admitNew);
    }
    const joined = joinedNames(index, token);
    if (joined) {
      const joinedRound = ++scratch.round;
      for (const nameId of joined) credit(nameId, token.weight, joinedRound, admitNew);
    }
    remaining -= token.weight * (joined ? 2 : 1);
  }
  const candidates = touched.filter((n) => evidence[n] >= floor);
  // Equal evidence (one common word, "gazprom", in hundreds of names): the shortest names first, which the query
  // covers best, or the cut below may leave out the very name it spells ("Gazprom PJSC").
  const length = (n: number) => index.nameTokenStart[n + 1] - index.nameTokenStart[n];
  candidates.sort((a, b) => evidence[b] - evidence[a] || length(a) - length(b));
  for (const n of touched) evidence[n] = 0;
  return candidates.slice(0, MAX_CANDIDATES);
}

/** Entities holding one of these identifier values (passport, registration, IMO…), as entity indexes. */
export function entitiesWithIdentifier(index: ScreeningIndex, values: string[]): Map<number, string> {
  const found = new Map<number, string>();
  for (const value of values) {
    const key = identifierKey(value);
    if (!key) continue;
    for (const entityIndex of index.byIdentifier.get(key) ?? []) found.set(entityIndex, value);
  }
  return found;
}
