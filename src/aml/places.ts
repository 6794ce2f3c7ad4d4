// Chinese provinces and cities an organisation's name may open with and the press leave out: Chinese companies are
// registered under the name of their province or city, then their brand ("Hangzhou Hikvision Digital Technology",
// "Zhejiang Dahua Technology", "Guangdong Zhongshan Chemical"), and written by the rest ("Hikvision", "Dahua
// Technology"). The table holds China's provinces, provincial capitals and sub-provincial cities, in normalised form
// (see normaliseText). Countries are not in it: a country opening a name is most often part of what names the body
// ("China Mobile", "Iran Air", "Korea Zinc"). Nor are other capitals: elsewhere a city opening a name is mostly what
// makes an ordinary phrase a name ("Tehran Prisons Organization", "Minsk Wheel Tractor Plant", "Beirut Gem SAL",
// "The Yangon Restaurant"), and many capitals are also words or names ("Male", "Lima", "Kingston", "Victoria").

import { isWeakToken, tokenise } from './normalize.ts';
import { countryNamedBy } from './parsers/countries.ts';

const CHINESE_PLACES = [
  'anhui', 'fujian', 'gansu', 'guangdong', 'guangxi', 'guizhou', 'hainan', 'hebei', 'heilongjiang', 'henan', 'hubei',
  'hunan', 'inner mongolia', 'jiangsu', 'jiangxi', 'jilin', 'liaoning', 'ningxia', 'qinghai', 'shaanxi', 'shandong',
  'shanxi', 'sichuan', 'tibet', 'xinjiang', 'yunnan', 'zhejiang', 'shanghai', 'tianjin', 'chongqing',
  'hefei', 'fuzhou', 'lanzhou', 'guangzhou', 'nanning', 'guiyang', 'haikou', 'shijiazhuang', 'harbin', 'zhengzhou',
  'wuhan', 'changsha', 'hohhot', 'nanjing', 'nanchang', 'changchun', 'shenyang', 'yinchuan', 'xining', 'xian',
  'jinan', 'taiyuan', 'chengdu', 'lhasa', 'urumqi', 'kunming', 'hangzhou', 'shenzhen', 'xiamen', 'ningbo', 'qingdao',
  'dalian',
];

const PLACES = new Set(CHINESE_PLACES);
const LONGEST_PLACE = Math.max(...[...PLACES].map((place) => place.split(' ').length));

/** How many tokens from `start` spell a place, longest first; 0 when none does. */
function placeLengthAt(tokens: string[], start: number): number {
  for (let length = Math.min(LONGEST_PLACE, tokens.length - start); length > 0; length--) {
    if (PLACES.has(tokens.slice(start, start + length).join(' '))) return length;
  }
  return 0;
}

/**
 * An organisation's name without the city or province it opens with, as registers write it and the press leaves
 * it out ("Hangzhou Hikvision Digital Technology" → "hikvision digital technology"), in normalised tokens;
 * undefined when it opens with none, or when no word that is not a legal form or a linking word would be left. A
 * closing place is kept: it more often names a branch or sibling abroad ("Alfa-Bank Ukraine" is not "Alfa-Bank").
 */
export function withoutPlaceName(raw: string): string | undefined {
  const tokens = tokenise(raw);
  const start = tokens[0] === 'the' ? 1 : 0;
  const place = placeLengthAt(tokens, start);
  if (place === 0) return undefined;
  const kept = tokens.slice(start + place);
  return kept.some((token) => !isWeakToken(token)) ? kept.join(' ') : undefined;
}

/** Words of the longest country name read ("Democratic People's Republic of Korea"). */
const LONGEST_COUNTRY = 5;
/** "Of" as Romance names write it ("Banco Nacional de Angola", "Banco do Brasil"), and the articles that may follow it. */
const OF_WORDS = new Set(['of', 'de', 'del', 'do', 'da', 'dos', 'das', 'du', 'des', 'di']);
const ARTICLES = new Set(['the', 'la', 'le', 'el']);

/**
 * An organisation's name without the country it closes with, bare or after "in", as banks and groups of one country
 * are written both ways ("Bank Mellat Iran" and "Bank Mellat", "Interpal UK", "Ansar al-Sharia in Tunisia"), in
 * normalised tokens, and that country's ISO code; undefined when it closes with none, when a country opens it too, or
 * when no word that is not a legal form or a linking word would be left, or when it is in brackets. Not a country
 * after "of" or a Romance "de", "do", "du": the body is then that country's ("National Bank of Egypt" is not a listed
 * NATIONAL BANK, "Banco Nacional de Angola" not BANCO NATIONAL, the "National Movement for the Liberation of Kosovo" no
 * "National Liberation Movement"). Whether the country is the body's own, and not a sibling's abroad ("Alfa-Bank
 * Ukraine"), is for the caller to tell from what the list records of the body.
 */
export function withoutClosingCountry(raw: string): { reading: string; country: string } | undefined {
  // A country in brackets is the writer's own way of telling namesakes apart ("Sonia (UK)"): it stays.
  if (/\)\s*$/.test(raw)) return undefined;
  const tokens = tokenise(raw);
  for (let length = Math.min(LONGEST_COUNTRY, tokens.length - 1); length > 0; length--) {
    const country = countryNamedBy(tokens.slice(tokens.length - length).join(' '));
    if (!country) continue;
    let end = tokens.length - length;
    if (ARTICLES.has(tokens[end - 1])) end--;
    if (OF_WORDS.has(tokens[end - 1])) return undefined;
    if (tokens[end - 1] === 'in') end--;
    const kept = tokens.slice(0, end);
    const opensWithCountry = kept.length > 1 && countryNamedBy(kept[0]) !== undefined;
    return kept.some((token) => !isWeakToken(token)) && !opensWithCountry ? { reading: kept.join(' '), country } : undefined;
  }
  return undefined;
}

/**
 * Countries' formal names as organisations' names write them, with the short name the press writes (round 33):
 * "Central Bank of the DPRK" / "... of North Korea" / "... of the Democratic People's Republic of Korea", "Ministry
 * of Intelligence of the Islamic Republic of Iran" / "... of Iran". Besides these, "Republic of" before a country's
 * name ("National Olympic Committee of the Republic of Belarus") is left out.
 */
const FORMAL_COUNTRY_NAMES = new Map<string, string>(Object.entries({
  'democratic peoples republic of korea': 'north korea', dprk: 'north korea', 'islamic republic of iran': 'iran',
  'russian federation': 'russia', 'syrian arab republic': 'syria', 'peoples republic of china': 'china',
  'bolivarian republic of venezuela': 'venezuela', 'lebanese republic': 'lebanon', 'kyrgyz republic': 'kyrgyzstan',
  'republic of the union of myanmar': 'myanmar', 'union of myanmar': 'myanmar', 'republic of korea': 'south korea',
}));
const FORMAL_NAME_WORDS = /republic|dprk|federation|myanmar/i;
const LONGEST_FORMAL_NAME = Math.max(...[...FORMAL_COUNTRY_NAMES.keys()].map((name) => name.split(' ').length));

/**
 * An organisation's name with the formal names of the countries it holds in their short form, in normalised tokens
 * (see FORMAL_COUNTRY_NAMES); undefined when it holds none.
 */
export function withShortCountryNames(raw: string): string | undefined {
  // Every formal name holds one of these words: tell so before the cost of tokenise.
  if (!FORMAL_NAME_WORDS.test(raw)) return undefined;
  const tokens = tokenise(raw);
  const read: string[] = [];
  let changed = false;
  for (let i = 0; i < tokens.length; ) {
    const length = [...Array(LONGEST_FORMAL_NAME).keys()].map((k) => LONGEST_FORMAL_NAME - k)
      .find((words) => i + words <= tokens.length && FORMAL_COUNTRY_NAMES.has(tokens.slice(i, i + words).join(' ')));
    if (length) {
      read.push(FORMAL_COUNTRY_NAMES.get(tokens.slice(i, i + length).join(' '))!);
      i += length;
      changed = true;
    } else if (tokens[i] === 'republic' && tokens[i + 1] === 'of' && i + 2 < tokens.length && i > 0
      && [3, 2, 1].some((words) => i + 2 + words === tokens.length && countryNamedBy(tokens.slice(i + 2).join(' ')))) {
      i += 2;
      changed = true;
    } else read.push(tokens[i++]);
  }
  return changed && tokens.length > 1 ? read.join(' ') : undefined;
}
