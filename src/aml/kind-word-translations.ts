// Kind and sector words of organisations' names as registers, lists and the press romanise them from Russian,
// Persian, Arabic, Turkish and Romanian, with their English: "Trubnaya Metallurgicheskaya Kompaniya" is "Pipe
// Metallurgical Company", "Sazman-e Sanaye-e Havafaza" the "Aerospace Industries Organization", "Partidul Șor" the
// "Shor Party" (round 33). Only words that say what kind of body it is or what it makes: a word that is also a brand
// ("Melli", "Saderat", "Mellat", "Sepah": national, export, nation, army) is left as written, for "National Bank" is
// not Bank Melli. Forms as `tokenise` writes them (lower case, no diacritics, apostrophes dropped).

import { isWeakToken, tokenise } from './normalize.ts';

/** Romanised kind words → their English words. */
const KIND_WORDS = new Map<string, string>(Object.entries({
  // Russian (nominative forms the lists and registers write, adjectives in their three genders).
  kompaniya: 'company', kompaniia: 'company', korporatsiya: 'corporation', korporatsiia: 'corporation',
  zavod: 'plant', zavodi: 'plants',
  obyedinenie: 'association', obedinenie: 'association', obyedineniye: 'association', obedineniye: 'association',
  obyedinennaya: 'united', obedinennaya: 'united', obyedinyonnaya: 'united', obedinyonnaya: 'united',
  obyedinennyy: 'united', obedinennyy: 'united', obyedinennye: 'united', obedinennye: 'united',
  gosudarstvennaya: 'state', gosudarstvennyy: 'state', gosudarstvennyi: 'state', gosudarstvennoe: 'state', gosudarstvennoye: 'state',
  natsionalny: 'national', natsionalnyy: 'national', natsionalnyi: 'national', natsionalnaya: 'national', natsionalnoye: 'national', natsionalnoe: 'national',
  federalnaya: 'federal', federalnyy: 'federal', federalnoye: 'federal', federalnoe: 'federal',
  mezhdunarodnyy: 'international', mezhdunarodnaya: 'international', mezhdunarodnoye: 'international', mezhdunarodnoe: 'international',
  tsentralnyy: 'central', tsentralnaya: 'central', tsentralnoye: 'central', tsentralnoe: 'central',
  aviatsionnyy: 'aviation', aviatsionny: 'aviation', aviatsionnaya: 'aviation', aviatsionnoye: 'aviation', aviatsionnoe: 'aviation',
  aviastroitelnaya: 'aircraft', aviastroitelnyy: 'aircraft', aviastroitelnyi: 'aircraft',
  sudostroitelnaya: 'shipbuilding', sudostroitelnyy: 'shipbuilding', sudostroitelnyi: 'shipbuilding', sudostroitelny: 'shipbuilding',
  mashinostroitelny: 'machine building', mashinostroitelnyy: 'machine building', mashinostroitelnyi: 'machine building', mashinostroitelnaya: 'machine building',
  metallurgicheskaya: 'metallurgical', metallurgicheskiy: 'metallurgical', metallurgicheskii: 'metallurgical', metallurgicheskoye: 'metallurgical',
  trubnaya: 'pipe', trubnyy: 'pipe', avtomobilny: 'automobile', avtomobilnyy: 'automobile', avtomobilnyi: 'automobile',
  tekhnicheskiy: 'technical', tekhnicheskii: 'technical', tekhnicheskaya: 'technical',
  proizvodstvennoye: 'production', proizvodstvennoe: 'production', proizvodstvennaya: 'production',
  neftyanaya: 'oil', neftyanoy: 'oil', gazovaya: 'gas', torgovaya: 'trading', torgovyy: 'trading',
  universitet: 'university', institut: 'institute', agentstvo: 'agency', ministerstvo: 'ministry', sluzhba: 'service',
  raschetny: 'settlement', raschetnyy: 'settlement', depozitariy: 'depository', partiya: 'party', partiia: 'party',
  dvizhenie: 'movement', dvizheniye: 'movement', raketnoe: 'missiles', raketnoye: 'missiles', takticheskoe: 'tactical', takticheskoye: 'tactical',
  // Persian, with the spellings the press and the lists give them.
  sazman: 'organization', sazeman: 'organization', sazmane: 'organization', sanaye: 'industries', sanaie: 'industries', sanayeh: 'industries',
  sherkat: 'company', sherkate: 'company', bonyad: 'foundation', daneshgah: 'university', vezarat: 'ministry', vezarate: 'ministry',
  havafaza: 'aerospace', havapeymaei: 'airlines', havapeymaii: 'airlines', kashtirani: 'shipping', keshtirani: 'shipping', defa: 'defense',
  // Arabic, Turkish, Romanian and Romance words for a company, an organisation and a party.
  sharikat: 'company', sharika: 'company', munazzamat: 'organization', munazzama: 'organization', harakat: 'movement',
  wizarat: 'ministry', sirketi: 'company', partidul: 'party', partidului: 'party', partido: 'party', partei: 'party', hizb: 'party',
}));

/** Two-word kind phrases, read before single words ("Hava Peymaei": Persian for airline). */
const KIND_PHRASES = new Map([['hava peymaei', 'airlines'], ['hava peymaii', 'airlines'], ['hava paymaei', 'airlines']]);

/**
 * Head words of a language that puts the kind first and what it is of after it (Persian ezafe, Arabic idafa,
 * Romanian): a name opening with one is said in English the other way round ("Sherkat-e Hava Peymaei-ye Mahan" →
 * "Mahan Airlines Company"), which is also what its English acronym is made of (AIO).
 */
const HEAD_FIRST = new Set([
  'sazman', 'sazeman', 'sazmane', 'sherkat', 'sherkate', 'bonyad', 'daneshgah', 'vezarat', 'vezarate', 'sharikat', 'sharika',
  'munazzamat', 'munazzama', 'wizarat', 'partidul', 'partido',
]);

/**
 * Kind words in English, the table's and "bank" (the same word in Russian and Persian): a name read with nothing but
 * one or two kind words in English is a generic phrase ("Natsionalnyy Bank", "Gazovaya Kompaniya": national bank, gas
 * company), which must not find a listed BANCO NATIONAL or OOO GAS as its English would.
 */
const KIND_WORDS_IN_ENGLISH = new Set([...KIND_WORDS.values(), ...KIND_PHRASES.values(), 'bank']);

/** Letters tokenise leaves as they are, but for case. */
const PLAIN = /^[\x20-\x7e]*$/;

/** The Persian ezafe as a word of its own once the hyphen is read ("Sazeman-e Sanaye-e"): it links, names nothing. */
const EZAFE = new Set(['e', 'ye', 'i']);

/**
 * An organisation's name with its romanised kind words in English, in English word order for a head-first name, as
 * one reading (round 33); undefined when it holds no such word. Other words stay as written.
 */
export function withKindWordsInEnglish(raw: string): string | undefined {
  // Most names are plain ASCII without such a word: tell so before the cost of tokenise.
  if (PLAIN.test(raw) && !raw.toLowerCase().split(/[^a-z]+/).some((word) => KIND_WORDS.has(word) || word === 'hava')) return undefined;
  const tokens = tokenise(raw);
  const english: string[] = [];
  let translated = 0;
  let ownWords = 0;
  for (let i = 0; i < tokens.length; i++) {
    const phrase = KIND_PHRASES.get(`${tokens[i]} ${tokens[i + 1]}`);
    const word = phrase ?? KIND_WORDS.get(tokens[i]);
    if (word) {
      english.push(word);
      translated++;
      if (phrase) i++;
    } else if (!(EZAFE.has(tokens[i]) && i > 0 && i < tokens.length - 1)) {
      english.push(tokens[i]);
      if (!isWeakToken(tokens[i]) && !KIND_WORDS_IN_ENGLISH.has(tokens[i])) ownWords++;
    }
  }
  // A name of its own words, or of three kind words at least ("Trubnaya Metallurgicheskaya Kompaniya"); not a kind
  // alone, nor two ("Sanaye Defa", defence industries, is Iran's in Persian but read so finds Sudan's listed body).
  if (translated === 0 || (ownWords === 0 && translated < 3)) return undefined;
  return (HEAD_FIRST.has(tokens[0]) ? english.reverse() : english).join(' ');
}
