// Legal forms written out in full, in normalised form (see normaliseText), and the abbreviation lists and
// registers use for them, after the ISO 20275 entity legal forms list and national company laws. A name is
// screened with its legal form folded, so "Siemens Aktiengesellschaft" and "Siemens AG" meet; numbers written as
// words or Roman numerals are folded to digits the same way ("Star Two", "Star II", "Star 2").

import { editDistance } from './similarity.ts';

export const LEGAL_FORMS: ReadonlyArray<readonly [string, string]> = [
  // English
  ['public limited company', 'plc'],
  ['public company limited', 'pcl'],
  ['private limited company', 'ltd'],
  ['private limited', 'pvt ltd'],
  ['proprietary limited', 'pty ltd'],
  ['limited liability company', 'llc'],
  ['limited liability partnership', 'llp'],
  ['limited partnership', 'lp'],
  ['limited', 'ltd'],
  ['incorporated', 'inc'],
  ['corporation', 'corp'],
  ['company', 'co'],
  ['public joint stock company', 'pjsc'],
  ['open joint stock company', 'ojsc'],
  ['closed joint stock company', 'cjsc'],
  ['joint stock company', 'jsc'],
  ['free zone establishment', 'fze'],
  ['free zone company', 'fzco'],
  ['private military company', 'pmc'],
  // German, Austrian, Swiss
  ['gesellschaft mit beschrankter haftung', 'gmbh'],
  ['gesellschaft mbh', 'gmbh'],
  ['kommanditgesellschaft auf aktien', 'kgaa'],
  ['aktiengesellschaft', 'ag'],
  ['kommanditgesellschaft', 'kg'],
  ['offene handelsgesellschaft', 'ohg'],
  ['eingetragener verein', 'ev'],
  // Romance languages
  ['societe anonyme', 'sa'],
  ['sociedad anonima', 'sa'],
  ['sociedade anonima', 'sa'],
  ['societa per azioni', 'spa'],
  ['societe a responsabilite limitee', 'sarl'],
  ['societe par actions simplifiee', 'sas'],
  ['sociedad de responsabilidad limitada', 'srl'],
  ['societa a responsabilita limitata', 'srl'],
  ['sociedade limitada', 'ltda'],
  ['limitada', 'ltda'],
  ['sociedad anonima de capital variable', 'sa de cv'],
  ['sociedad anonima bursatil de capital variable', 'sab de cv'],
  // Dutch, Nordic
  ['besloten vennootschap', 'bv'],
  ['naamloze vennootschap', 'nv'],
  ['aktiebolag', 'ab'],
  ['aktiebolaget', 'ab'],
  ['aktieselskab', 'as'],
  ['aksjeselskap', 'as'],
  ['allmennaksjeselskap', 'asa'],
  ['osakeyhtio', 'oy'],
  // Russian, Ukrainian (romanised as any-ascii writes them, apostrophes dropped)
  ['obshchestvo s ogranichennoy otvetstvennostyu', 'ooo'],
  ['obshchestvo s ogranichennoi otvetstvennostiu', 'ooo'],
  ['obshchestvo s ogranichennoi otvetstvennostyu', 'ooo'],
  ['publichnoe aktsionernoe obshchestvo', 'pao'],
  ['otkrytoe aktsionernoe obshchestvo', 'oao'],
  ['zakrytoe aktsionernoe obshchestvo', 'zao'],
  ['aktsionernoe obshchestvo', 'ao'],
  // A Russian state corporation (goskorporatsiya: Rostec, Rosatom, Roscosmos), a legal form of its own.
  ['gosudarstvennaya korporatsiya', 'gk'],
  ['state corporation', 'gk'],
  ['tovarystvo z obmezhenoyu vidpovidalnistyu', 'tov'],
  // A Russian or Central Asian bank's commercial bank form (kommercheskii bank, KB); its joint stock form (AKB) is
  // folded by jointStockBankFormAt below.
  ['kommercheskii bank', 'kb'],
  ['kommercheskiy bank', 'kb'],
  // A Russian state's or city's unitary enterprise (federalnoe / gosudarstvennoe unitarnoe predpriyatie).
  ['federal state unitary enterprise', 'fsue'],
  ['federalnoe gosudarstvennoe unitarnoe predpriyatie', 'fsue'],
  ['fgup', 'fsue'],
  ['state unitary enterprise', 'sue'],
  ['gosudarstvennoe unitarnoe predpriyatie', 'sue'],
  ['gup', 'sue'],
  // Central Europe
  ['spolka z ograniczona odpowiedzialnoscia', 'spzoo'],
  ['sp z o o', 'spzoo'],
  ['sp z oo', 'spzoo'],
  ['spolecnost s rucenim omezenym', 'sro'],
  ['korlatolt felelossegu tarsasag', 'kft'],
  ['drustvo s ogranicenom odgovornoscu', 'doo'],
  // Turkish, Asian
  ['anonim sirketi', 'as'],
  ['limited sirketi', 'ltd sti'],
  ['sendirian berhad', 'sdn bhd'],
  ['berhad', 'bhd'],
  ['perseroan terbatas', 'pt'],
  // Indonesian: a listed company (terbuka, Tbk) and a state-owned one (perusahaan perseroan, "(Persero)")
  ['terbuka', 'tbk'],
  ['perusahaan perseroan', 'persero'],
  ['kabushiki kaisha', 'kk'],
  ['kabushiki gaisha', 'kk'],
  ['yugen kaisha', 'yk'],
];

/**
 * Words of legal forms that also name things ("Public Security Bureau", "Free Zone Authority"): "KB" is also a
 * Korean bank's brand ("KB Financial Group") and a Russian design bureau (konstruktorskoe byuro, "KB Navis"), "SUE"
 * a given name.
 */
const NAMING_WORDS = new Set([
  'public', 'private', 'open', 'closed', 'free', 'zone', 'capital', 'variable', 'establishment', 'partnership', 'military', 'state',
  'commercial', 'bank', 'federal', 'enterprise', 'kb', 'sue',
]);

/**
 * Abbreviations the folding produces, and words of legal forms written in full: weak tokens, so that a legal
 * form left unfolded (reordered, misspelt twice) costs little and decides nothing.
 */
export const LEGAL_FORM_WORDS = [
  ...new Set(LEGAL_FORMS.flatMap(([phrase, abbreviation]) => [...phrase.split(' '), ...abbreviation.split(' ')])),
].filter((word) => word.length > 1 && !NAMING_WORDS.has(word));

const NUMBERS: Record<string, string> = {
  one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12',
  // Roman numerals of two letters or more: one letter ("v", "x") is far more often an initial.
  ii: '2', iii: '3', iv: '4', vi: '6', vii: '7', viii: '8', ix: '9', xi: '11', xii: '12', xiii: '13', xiv: '14', xv: '15',
};

interface Fold { words: string[]; replacement: string[] }

/** Folds by first word, longest first, so "public joint stock company" wins over "joint stock company". */
const FOLDS_BY_FIRST_WORD = new Map<string, Fold[]>();
for (const [phrase, abbreviation] of LEGAL_FORMS) {
  const words = phrase.split(' ');
  const folds = FOLDS_BY_FIRST_WORD.get(words[0]) ?? [];
  folds.push({ words, replacement: abbreviation.split(' ') });
  folds.sort((a, b) => b.words.length - a.words.length);
  FOLDS_BY_FIRST_WORD.set(words[0], folds);
}

/** Long first words of legal forms by their first letter, to find them misspelt ("limtied"). */
const LONG_FIRST_WORDS = new Map<string, string[]>();
for (const first of FOLDS_BY_FIRST_WORD.keys()) {
  if (first.length < 6) continue;
  LONG_FIRST_WORDS.set(first[0], [...(LONG_FIRST_WORDS.get(first[0]) ?? []), first]);
}

/** Legal forms that may start at this token, written right or with one typo. */
function foldsFor(token: string): Fold[] | undefined {
  const exact = FOLDS_BY_FIRST_WORD.get(token);
  if (exact || token.length < 6) return exact;
  const misspelt = LONG_FIRST_WORDS.get(token[0])?.find((first) => Math.abs(first.length - token.length) <= 1 && editDistance(token, first, 1) <= 1);
  return misspelt === undefined ? undefined : FOLDS_BY_FIRST_WORD.get(misspelt);
}

/** Words of legal forms also abbreviated inside them ("Closed Joint Stock Co."). */
const WORD_ABBREVIATIONS: Record<string, string> = { company: 'co', corporation: 'corp', limited: 'ltd' };

/** A word of a legal form, its abbreviation ("joint stock co"), or the word with one typo when it has four letters or more ("copmany"). */
function sameWord(token: string | undefined, word: string): boolean {
  return token === word || (token !== undefined && (WORD_ABBREVIATIONS[word] === token || (word.length >= 4 && editDistance(token, word, 1) <= 1)));
}


/**
 * An airline's word, alone or closing a word after a name of three letters or more ("NASERAIRWAYS"; not
 * "fairways", "stairways"). An airline goes by "Air", "Airlines" and "Airways" alike after its name ("Mahan Air",
 * "Mahan Airlines"), but "Air" before a name makes another one ("Air China" is not "China Airlines").
 */
const AIRLINE_WORD = /^((?:[a-z0-9]{3,})?air)(?:line|ways)$/;

/** An airline's word after its name, folded; joined to the name it may also be written "air" ("MahanAir"). */
export const AIRLINE_WORD_FOLDED = 'airlines';

/**
 * Generic words of organisations' names in the languages and romanisations lists, registers and the press write
 * them, folded to one form ("Banque Melli", "Banco Mellat", "Banke Melli" (Persian, with its ezafe), "Grupo",
 * "Holdings"), as legal forms are; a key of two or three words is a phrase ("Uzbekistan Havo Yollari", "Azerbaijan
 * Hava Yollari": Uzbek and Turkish "air ways"; "San. ve Tic.", Turkish "Sanayi ve Ticaret", written out). Folded words keep the weight the lists give them, so a generic word
 * paired with its translation still decides nothing alone.
 */
const GENERIC_WORDS: Record<string, string[]> = {
  banque: ['bank'], banco: ['bank'], banca: ['bank'], bankasi: ['bank'], banke: ['bank'], yinhang: ['bank'],
  groupe: ['group'], grupo: ['group'], gruppe: ['group'], gruppo: ['group'], jituan: ['group'], holdings: ['holding'],
  'hava yollari': [AIRLINE_WORD_FOLDED], 'havo yollari': [AIRLINE_WORD_FOLDED],
  compagnie: ['co'], compania: ['co'], companhia: ['co'], compagnia: ['co'],
  handelsgesellschaft: ['trading', 'co'],
  intl: ['international'],
  // Kind words of organisations' names romanised from Russian, Arabic and Persian, in English: a stock or commodity
  // exchange (birzha), an airline (aviakompaniya), a brigade (liwa), steel (foolad, fulad).
  birzha: ['exchange'], aviakompaniya: [AIRLINE_WORD_FOLDED], aviakompaniia: [AIRLINE_WORD_FOLDED],
  liwa: ['brigade'], foolad: ['steel'], fulad: ['steel'],
  // Round 31: a group of companies as Russian writes it (gruppa, gruppa kompaniy) and English registers do ("X
  // Group of Companies"); a news agency in Persian (khabargozari); a foundation in Arabic (muassasa, muassasat, as
  // any-ascii and the press write it, the ta marbuta read or not). A works' kombinat is not folded to "complex": both
  // are weak kinds (normalize.ts), and the word keeps its initial for acronyms (MMK, NLMK: "...Metallurgicheskiy
  // Kombinat").
  gruppa: ['group'], 'gruppa kompaniy': ['group'], 'gruppa kompanii': ['group'], 'group of companies': ['group'],
  khabargozari: ['news', 'agency'], muassasa: ['foundation'], muassasat: ['foundation'], muassasah: ['foundation'],
  // A broadcaster's kind (round 31): television, the Russian telekompaniya (TV company) and telekanal (TV channel),
  // the Arabic qanat (channel), folded to "tv", which names no broadcaster ("Al-Manar", "Al Manar TV", "Qanat
  // al-Manar"). "Channel" alone is left: it names ("Channel One").
  television: ['tv'], telekompaniya: ['tv'], telekompaniia: ['tv'], telekanal: ['tv'], qanat: ['tv'],
  'broadcasting company': ['tv'], 'tv channel': ['tv'], 'television channel': ['tv'],
  // Turkish registers abbreviate "Sanayi ve Ticaret" (industry and trade) and "Ithalat Ihracat" (import export).
  'san ve tic': ['sanayi', 've', 'ticaret'], 'san tic': ['sanayi', 'ticaret'],
  'tic ve san': ['ticaret', 've', 'sanayi'], 'tic san': ['ticaret', 'sanayi'],
  'ith ihr': ['ithalat', 'ihracat'], 'ith ve ihr': ['ithalat', 've', 'ihracat'],
};
/** The first words of GENERIC_WORDS' phrases: only these make a token worth reading with the next one. */
const GENERIC_PHRASE_FIRST_WORDS = new Set(Object.keys(GENERIC_WORDS).filter((key) => key.includes(' ')).map((key) => key.split(' ')[0]));

/** The word with its "airline" or "airways" folded to "airlines", also at the end of a longer word. */
export function withAirlineWordFolded(word: string): string {
  return word.replace(AIRLINE_WORD, '$1lines');
}

/** Words before a name that leave its "Air" leading ("The Air Koryo", "PJSC Air X"). */
const LEADING_WORDS = new Set(['the', ...LEGAL_FORM_WORDS]);

/** A number's marker before it ("Nam San No. 8", "Kum Un San No 3"): the number alone names the ship. */
const NUMBER_MARKERS = new Set(['no', 'nr']);

/** A Russian bank's "KB" (kommercheskii bank) as the lists translate it. */
const COMMERCIAL_BANK_FORM = 'kb';

/**
 * Whether "commercial bank" at `i` is the Russian register's form, translated, between the legal form and the bank's
 * own name ("JOINT STOCK COMPANY COMMERCIAL BANK MODULBANK"): it follows legal forms only, and a name follows it, not
 * "of" ("COMMERCIAL BANK OF SYRIA", "TANCHON COMMERCIAL BANK" and "Commercial Bank International" keep their words).
 */
function opensCommercialBankForm(tokens: string[], i: number, folded: string[]): boolean {
  return tokens[i] === 'commercial' && tokens[i + 1] === 'bank' && i + 2 < tokens.length && !LINKING_WORDS.has(tokens[i + 2])
    && folded.length > 0 && folded.every((word) => LEADING_WORDS.has(word) && word !== 'the');
}

/** Words that make "commercial bank" part of a longer name ("Commercial Bank of Syria", "... for Development"). */
const LINKING_WORDS = new Set(['of', 'for', 'and']);

/** A Russian or Central Asian bank's joint stock form: joint stock commercial bank (aktsionernyi kommercheskii bank, AKB, JSCB). */
const JOINT_STOCK_BANK_FORMS = [
  ['joint', 'stock', 'commercial', 'bank'], ['aktsionernyi', 'kommercheskii', 'bank'], ['aktsionernyy', 'kommercheskiy', 'bank'], ['akb'], ['jscb'],
  // The same form as English translations of Russian and Central Asian registers also write it: joint stock bank, JSB.
  ['joint', 'stock', 'bank'], ['jsb'],
];

/** How many tokens a joint stock bank form at `i` takes, 0 for none: only before a name, not closing an aircraft's mark ("YK-AKB"). */
function jointStockBankFormAt(tokens: string[], i: number): number {
  return JOINT_STOCK_BANK_FORMS.find((words) => i + words.length < tokens.length && words.every((word, k) => tokens[i + k] === word))?.length ?? 0;
}

/** A table's own entry for a word: not what every object inherits ("constructor" made a name unreadable). */
function ownEntry<T>(table: Record<string, T>, word: string | undefined): T | undefined {
  return word !== undefined && Object.hasOwn(table, word) ? table[word] : undefined;
}

/**
 * Tokens with legal forms written in full replaced by their abbreviation, generic words by one form, numbers by
 * digits, and a number's marker dropped.
 */
export function foldLegalFormsAndNumbers(tokens: string[]): string[] {
  const folded: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    if (i > 0 && NUMBER_MARKERS.has(tokens[i]) && /^\d+$/.test(ownEntry(NUMBERS, tokens[i + 1]) ?? tokens[i + 1] ?? '')) {
      i++;
      continue;
    }
    const fold = foldsFor(tokens[i])?.find(({ words }) => words.every((word, k) => (k === 0 ? sameWord(tokens[i], word) : sameWord(tokens[i + k], word))));
    if (fold) {
      folded.push(...fold.replacement);
      i += fold.words.length;
      continue;
    }
    const bankForm = jointStockBankFormAt(tokens, i);
    if (bankForm) {
      // The joint stock form, and the bank's kind unless its name says it ("AKB Absolut Bank", "AKB Novikombank"):
      // "AKB Vega" is a bank, not PMC Vega.
      const named = tokens.some((token, k) => (k < i || k >= i + bankForm) && token.endsWith('bank'));
      folded.push('jsc', ...(named ? [] : ['bank']));
      i += bankForm;
      continue;
    }
    if (opensCommercialBankForm(tokens, i, folded)) {
      folded.push(COMMERCIAL_BANK_FORM);
      i += 2;
      continue;
    }
    if (GENERIC_PHRASE_FIRST_WORDS.has(tokens[i])) {
      const length = [3, 2].find((words) => GENERIC_WORDS[tokens.slice(i, i + words).join(' ')] && i + words <= tokens.length);
      if (length) {
        folded.push(...GENERIC_WORDS[tokens.slice(i, i + length).join(' ')]);
        i += length;
        continue;
      }
    }
    const generic = ownEntry(GENERIC_WORDS, tokens[i]);
    if (generic) folded.push(...generic);
    else if (tokens[i] === 'air' && folded.some((word) => !LEADING_WORDS.has(word))) folded.push(AIRLINE_WORD_FOLDED);
    else folded.push(ownEntry(NUMBERS, tokens[i]) ?? withAirlineWordFolded(tokens[i]));
    i++;
  }
  return folded;
}
