// Cities and provinces an organisation's name may open with and the press leave out: companies are registered
// under the name of their city or province ("Hangzhou Hikvision Digital Technology", "Zhejiang Dahua Technology",
// "Guangdong Zhongshan Chemical"), and written by the rest ("Hikvision", "Dahua Technology"). The table holds the
// world's capitals and the provinces, provincial capitals and sub-provincial cities of China, in normalised form
// (see normaliseText). Countries are not in it: a country opening a name is most often part of what names the
// body ("China Mobile", "Iran Air", "Korea Zinc", "Kenya Airways").

import { isWeakToken, tokenise } from './normalize.ts';

const CAPITALS = [
  'kabul', 'tirana', 'algiers', 'luanda', 'buenos aires', 'yerevan', 'canberra', 'vienna', 'baku', 'nassau', 'manama',
  'dhaka', 'minsk', 'brussels', 'porto novo', 'thimphu', 'la paz', 'sarajevo', 'gaborone', 'brasilia', 'sofia',
  'ouagadougou', 'gitega', 'phnom penh', 'yaounde', 'ottawa', 'bangui', 'ndjamena', 'santiago', 'beijing', 'bogota',
  'kinshasa', 'brazzaville', 'san jose', 'zagreb', 'havana', 'nicosia', 'prague', 'copenhagen', 'santo domingo',
  'quito', 'cairo', 'san salvador', 'malabo', 'asmara', 'tallinn', 'addis ababa', 'helsinki', 'paris', 'libreville',
  'banjul', 'tbilisi', 'berlin', 'accra', 'athens', 'guatemala city', 'conakry', 'bissau', 'georgetown',
  'port au prince', 'tegucigalpa', 'budapest', 'reykjavik', 'new delhi', 'jakarta', 'tehran', 'baghdad', 'dublin',
  'jerusalem', 'rome', 'kingston', 'tokyo', 'amman', 'astana', 'nur sultan', 'nairobi', 'pyongyang', 'seoul',
  'pristina', 'kuwait city', 'bishkek', 'vientiane', 'riga', 'beirut', 'maseru', 'monrovia', 'tripoli', 'vilnius',
  'antananarivo', 'lilongwe', 'kuala lumpur', 'male', 'bamako', 'valletta', 'nouakchott', 'port louis', 'mexico city',
  'chisinau', 'ulaanbaatar', 'ulan bator', 'podgorica', 'rabat', 'maputo', 'naypyidaw', 'naypyitaw', 'yangon',
  'rangoon', 'windhoek', 'kathmandu', 'amsterdam', 'wellington', 'managua', 'niamey', 'abuja', 'skopje', 'oslo',
  'muscat', 'islamabad', 'panama city', 'asuncion', 'lima', 'manila', 'warsaw', 'lisbon', 'doha', 'bucharest',
  'moscow', 'kigali', 'riyadh', 'dakar', 'belgrade', 'freetown', 'bratislava', 'ljubljana', 'mogadishu', 'pretoria',
  'juba', 'madrid', 'colombo', 'khartoum', 'paramaribo', 'stockholm', 'bern', 'damascus', 'taipei', 'dushanbe',
  'dodoma', 'bangkok', 'dili', 'lome', 'tunis', 'ankara', 'ashgabat', 'kampala', 'kyiv', 'kiev', 'abu dhabi',
  'london', 'washington', 'montevideo', 'tashkent', 'caracas', 'hanoi', 'sanaa', 'lusaka', 'harare',
];

const CHINESE_PLACES = [
  'anhui', 'fujian', 'gansu', 'guangdong', 'guangxi', 'guizhou', 'hainan', 'hebei', 'heilongjiang', 'henan', 'hubei',
  'hunan', 'inner mongolia', 'jiangsu', 'jiangxi', 'jilin', 'liaoning', 'ningxia', 'qinghai', 'shaanxi', 'shandong',
  'shanxi', 'sichuan', 'tibet', 'xinjiang', 'yunnan', 'zhejiang', 'shanghai', 'tianjin', 'chongqing',
  'hefei', 'fuzhou', 'lanzhou', 'guangzhou', 'nanning', 'guiyang', 'haikou', 'shijiazhuang', 'harbin', 'zhengzhou',
  'wuhan', 'changsha', 'hohhot', 'nanjing', 'nanchang', 'changchun', 'shenyang', 'yinchuan', 'xining', 'xian',
  'jinan', 'taiyuan', 'chengdu', 'lhasa', 'urumqi', 'kunming', 'hangzhou', 'shenzhen', 'xiamen', 'ningbo', 'qingdao',
  'dalian',
];

const PLACES = new Set([...CAPITALS, ...CHINESE_PLACES]);
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
