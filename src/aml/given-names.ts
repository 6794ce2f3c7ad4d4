// Given names that are one name to whoever writes them: the English short forms in everyday use (William/Bill)
// and the forms one Slavic name takes in Russian, Ukrainian and Belarusian (official spellings after the
// BGN/PCGN and national passport romanisations) and in English; and Arabic names spelt apart further than the
// transliteration key reaches (ARABIC_RESPELLINGS). Kept conservative: a short form is listed only
// where it is a well-established equivalent of one full name (no "Sasha", no "Al", no "Jack"), so that a query
// naming "Bill Smith" finds "SMITH, William" without making every short word a given name.

const EQUIVALENT_GIVEN_NAMES: string[][] = [
  // English short forms
  ['william', 'bill', 'billy', 'will', 'willy'],
  ['robert', 'bob', 'bobby', 'rob', 'robbie'],
  ['richard', 'rick', 'ricky', 'dick'],
  ['james', 'jim', 'jimmy'],
  ['joseph', 'joe', 'joey'],
  ['thomas', 'tom', 'tommy'],
  ['michael', 'mike'],
  ['edward', 'ted', 'eddie'],
  ['charles', 'charlie', 'chuck'],
  ['anthony', 'tony'],
  ['daniel', 'danny', 'dan'],
  ['david', 'dave'],
  // Christy: the Irish short form of Christopher (also of Christina, kept apart here as a woman's name).
  ['christopher', 'chris', 'christy'],
  ['matthew', 'matt'],
  ['stephen', 'steven', 'steve'],
  ['benjamin', 'ben'],
  ['samuel', 'sam'],
  ['jonathan', 'jon'],
  ['timothy', 'tim'],
  ['kenneth', 'ken'],
  ['ronald', 'ron'],
  ['gerald', 'jerry'],
  ['lawrence', 'larry'],
  ['elizabeth', 'liz', 'beth', 'betty'],
  ['margaret', 'maggie', 'peggy'],
  ['katherine', 'catherine', 'kathy', 'kate', 'yekaterina', 'ekaterina', 'katsiaryna', 'kateryna'],
  ['jennifer', 'jenny'],
  ['rebecca', 'becky'],
  ['susan', 'sue'],
  ['patricia', 'trish'],
  // One Slavic name in Russian, Ukrainian and Belarusian forms, with its English form
  ['alexander', 'aleksandr', 'oleksandr', 'alyaksandr', 'aliaksandr', 'alex'],
  ['alexey', 'aleksey', 'aleksei', 'alexei', 'oleksiy', 'oleksii', 'aliaksei', 'alyaksei'],
  ['andrei', 'andrey', 'andriy', 'andrii', 'andrew'],
  ['anatoly', 'anatoliy', 'anatolii', 'anatol'],
  ['vasily', 'vasiliy', 'vasyl', 'vasil'],
  ['vladimir', 'volodymyr', 'uladzimir'],
  ['viktor', 'victor', 'viktar'],
  ['sergey', 'sergei', 'serhiy', 'serhii', 'siarhei', 'sergiy'],
  ['dmitry', 'dmitri', 'dmitriy', 'dmytro', 'dzmitry', 'dzmitryi'],
  ['nikolai', 'nikolay', 'mykola', 'mikalai', 'nicholas'],
  ['pyotr', 'petr', 'petro', 'piotr', 'peter'],
  ['pavel', 'pavlo', 'paval', 'paul'],
  ['grigory', 'grigoriy', 'hryhoriy', 'hryhorii', 'ryhor', 'gregory'],
  ['yevgeny', 'yevgeniy', 'evgeny', 'evgeniy', 'evgeni', 'yevhen', 'yauhen', 'eugene'],
  ['georgy', 'georgiy', 'heorhiy', 'heorhii', 'george'],
  ['igor', 'ihor'],
  // Герман: Russian (BGN) German, Ukrainian and English Herman, French Guerman.
  ['german', 'herman', 'guerman'],
  ['oleg', 'oleh', 'aleh'],
  ['gennady', 'gennadiy', 'hennadiy', 'hennadii'],
  ['konstantin', 'kostiantyn', 'kostyantyn', 'kanstantsin', 'constantine'],
  ['leonid', 'leanid'],
  ['valery', 'valeriy', 'valerii'],
  ['yury', 'yuriy', 'yuri', 'yurii'],
  ['mikhail', 'mykhailo', 'mikhal', 'michael'],
  ['olga', 'olha', 'volha'],
  ['yelena', 'elena', 'olena', 'alena', 'helen'],
  ['tatyana', 'tatiana', 'tetiana', 'tatsiana'],
  ['natalya', 'natalia', 'nataliya', 'natallia'],
  ['anna', 'hanna', 'ganna'],
];

/**
 * One Arabic name in Egyptian spelling, which writes jim as g ("Gamal Abdel Nasser"), and in others; romanisations
 * that write a long i as y ("Aly"), ʿayn and long i as ee or ey ("Saeed", "Sayeed" for sa'id, not sayyid, "Sayed"),
 * and waw as w, u, oo or ou ("Dawud", "Daud", "Dawood", the Persian "Davood"), which the typo budget of a short
 * name does not reach.
 */
const ARABIC_RESPELLINGS: string[][] = [
  ['jamal', 'gamal'],
  ['jamil', 'gamil'],
  ['jamila', 'gamila'],
  ['jaber', 'gaber', 'jabir'],
  ['jalal', 'galal'],
  ['rajab', 'ragab'],
  ['najib', 'naguib', 'nagib'],
  ['majdi', 'magdi', 'magdy'],
  ['ali', 'aly'],
  ['said', 'saeed', 'saeid', 'saied', 'sayeed'],
  ['dawud', 'dawood', 'daud', 'daoud', 'dawoud', 'davood', 'davoud'],
  ['umar', 'omar', 'omer'],
  ['bashir', 'bechir', 'bachir'],
  // The Golan nisba: classical jawlani, the colloquial g for jim (Egyptian, Levantine press), French ou.
  ['jawlani', 'julani', 'jolani', 'golani', 'joulani'],
];

/**
 * The English short forms above (hypocoristics): a nickname, which its bearer may or may not go by, is weaker
 * evidence than the same name in another language or romanisation.
 */
const SHORT_FORMS = new Set([
  'bill', 'billy', 'will', 'willy', 'bob', 'bobby', 'rob', 'robbie', 'rick', 'ricky', 'dick', 'jim', 'jimmy', 'joe',
  'joey', 'tom', 'tommy', 'mike', 'ted', 'eddie', 'charlie', 'chuck', 'tony', 'danny', 'dan', 'dave', 'chris', 'christy', 'matt',
  'steve', 'ben', 'sam', 'jon', 'tim', 'ken', 'ron', 'jerry', 'larry', 'liz', 'beth', 'betty', 'maggie', 'peggy',
  'kathy', 'kate', 'jenny', 'becky', 'sue', 'trish', 'alex',
]);

/**
 * Whether a pairing involves a short form on one side and another name on the other: its own long form ("bob" ~
 * "robert") or a look-alike ("dave" ~ "dawood"). Either says less than the same full name would.
 */
export function isShortFormPair(a: string, b: string): boolean {
  return a !== b && (SHORT_FORMS.has(a) || SHORT_FORMS.has(b));
}

const EQUIVALENTS = new Map<string, string[]>();
for (const group of EQUIVALENT_GIVEN_NAMES) {
  for (const name of group) {
    const others = new Set([...(EQUIVALENTS.get(name) ?? []), ...group.filter((other) => other !== name)]);
    EQUIVALENTS.set(name, [...others]);
  }
}

/** Other forms of a given name ("bill" → william, will…; "yevhen" → yevgeny, eugene…), empty when none is known. */
export function equivalentGivenNames(token: string): readonly string[] {
  return EQUIVALENTS.get(token) ?? [];
}

const RESPELLINGS = new Map(ARABIC_RESPELLINGS.flatMap((group) => group.map((name) => [name, group.filter((other) => other !== name)] as [string, string[]])));

/**
 * Other spellings of an Arabic name (ARABIC_RESPELLINGS: "gamal" → jamal), empty when none is known: letters neither
 * a typo nor the transliteration key would pair, weaker evidence than one system's forms of a Slavic name.
 */
export function arabicRespellings(token: string): readonly string[] {
  return RESPELLINGS.get(token) ?? [];
}

const SAID = new Set(ARABIC_RESPELLINGS.find((group) => group[0] === 'said'));
/** Spellings of the title sayyid that no romanisation uses for the given name sa'id ("Sayed" and "Sayid" may be either). */
const SAYYID = new Set(['sayyid', 'sayyed', 'seyyed', 'seyed', 'seyyid']);

/**
 * Whether one token is a spelling of the given name sa'id and the other of the title sayyid: other words that the
 * transliteration key pairs ("sayeed"/"seyyed" both read s-d), as in "Saeed Ghasemi" against "GHASEMI, Seyyed Reza".
 */
export function saidAgainstSayyid(a: string, b: string): boolean {
  return (SAID.has(a) && SAYYID.has(b)) || (SAYYID.has(a) && SAID.has(b));
}

/**
 * A Russian, Ukrainian or Belarusian patronymic: the father's given name and a suffix ("grigor-yevich", "ryhor-avich"),
 * also as German, French and Polish write the suffix ("Sergejewitsch", "Iakovlevitch", "Władimirowicz", "Jurjewna").
 */
const PATRONYMIC = /^(.+?)(yevich|ievich|evich|ovich|evych|ovych|avich|jewitsch|ewitsch|owitsch|ievitch|evitch|ovitch|owicz|ewicz|yevna|ievna|evna|ovna|ivna|auna|jewna|ewna|owna)$/;
const MALE_PATRONYMIC_SUFFIXES = ['ovich', 'evich', 'yevich', 'ievich', 'ovych', 'evych', 'avich'];
const FEMALE_PATRONYMIC_SUFFIXES = ['ovna', 'evna', 'yevna', 'ievna', 'ivna', 'auna'];

export function isPatronymic(token: string): boolean {
  return PATRONYMIC.test(token);
}

/**
 * The same patronymic formed from the other forms of the father's name ("grigoryevich" → ryhorovich,
 * hryhorovych…; "aleksandrovna" → oleksandrivna…), empty when it is not a patronymic of a name in the table.
 */
export function equivalentPatronymics(token: string): string[] {
  const patronymic = PATRONYMIC.exec(token);
  if (!patronymic) return [];
  const [, stem, suffix] = patronymic;
  const fathers = ['', 'y', 'iy', 'i', 'ii'].flatMap((ending) => EQUIVALENTS.get(stem + ending) ?? []);
  const suffixes = suffix.endsWith('na') ? FEMALE_PATRONYMIC_SUFFIXES : MALE_PATRONYMIC_SUFFIXES;
  const forms = new Set(fathers.flatMap((father) => suffixes.map((ending) => father.replace(/(?:iy|ii|y|i)$/, '') + ending)));
  forms.delete(token);
  return [...forms];
}
