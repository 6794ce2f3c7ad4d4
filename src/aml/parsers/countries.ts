// Country names as written by the publishers → ISO 3166-1 alpha-2, so that a query's `country` (a code or a
// name) can be compared with a listed nationality or address. Names come from the ICU data bundled with Node.

const PUBLISHER_SPELLINGS: Record<string, string> = {
  'russian federation': 'RU',
  'iran islamic republic of': 'IR',
  'iran islamic republic': 'IR',
  'syrian arab republic': 'SY',
  'democratic people s republic of korea': 'KP',
  'democratic peoples republic of korea': 'KP',
  'korea north': 'KP',
  'north korea': 'KP',
  'republic of korea': 'KR',
  'korea south': 'KR',
  'south korea': 'KR',
  'viet nam': 'VN',
  'lao people s democratic republic': 'LA',
  'united republic of tanzania': 'TZ',
  'bolivia plurinational state of': 'BO',
  'venezuela bolivarian republic of': 'VE',
  'republic of moldova': 'MD',
  'united kingdom of great britain and northern ireland': 'GB',
  'united states of america': 'US',
  'usa': 'US',
  'uk': 'GB',
  'burma': 'MM',
  'democratic republic of the congo': 'CD',
  'congo democratic republic of the': 'CD',
  'republic of the congo': 'CG',
  'ivory coast': 'CI',
  'cote d ivoire': 'CI',
  'state of palestine': 'PS',
  'palestinian': 'PS',
  'west bank': 'PS',
  'gaza': 'PS',
  'turkiye': 'TR',
  // ICU 74 and later name TR "Türkiye" only; the UN list and OFAC's remarks write "Turkey".
  'turkey': 'TR',
  'czechia': 'CZ',
  'czech republic': 'CZ',
  'macedonia': 'MK',
  'the former yugoslav republic of macedonia': 'MK',
  'swaziland': 'SZ',
  'holy see': 'VA',
  'crimea': 'UA',
};

const DEMONYMS: Record<string, string> = {
  afghan: 'AF', iranian: 'IR', iraqi: 'IQ', syrian: 'SY', russian: 'RU', chinese: 'CN', yemeni: 'YE',
  lebanese: 'LB', pakistani: 'PK', saudi: 'SA', 'saudi arabian': 'SA', egyptian: 'EG', libyan: 'LY',
  sudanese: 'SD', somali: 'SO', 'north korean': 'KP', korean: 'KR', venezuelan: 'VE', cuban: 'CU',
  colombian: 'CO', mexican: 'MX', american: 'US', british: 'GB', ukrainian: 'UA', belarusian: 'BY',
  turkish: 'TR', jordanian: 'JO', kuwaiti: 'KW', qatari: 'QA', emirati: 'AE', indian: 'IN',
  nigerian: 'NG', kenyan: 'KE', malian: 'ML', tunisian: 'TN', algerian: 'DZ', moroccan: 'MA',
  german: 'DE', french: 'FR', italian: 'IT', spanish: 'ES', belgian: 'BE', dutch: 'NL', swiss: 'CH',
  indonesian: 'ID', filipino: 'PH', malaysian: 'MY', bangladeshi: 'BD', nicaraguan: 'NI',
  congolese: 'CD', rwandan: 'RW', burundian: 'BI', ugandan: 'UG', eritrean: 'ER', ethiopian: 'ET',
};

function key(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

// Withdrawn or reserved codes that ICU still names (SU "Russia"?, YU, CS…) must not shadow current ones: ICU names
// VD "Vietnam", RH "Zimbabwe" and NH "Vanuatu", which come before VN, ZW and VU in the loop below.
const RETIRED_CODES = new Set([
  'SU', 'DD', 'YU', 'CS', 'ZR', 'TP', 'BU', 'FX', 'NT', 'YD', 'QO', 'EU', 'EZ', 'UN', 'ZZ', 'XA', 'XB', 'AN', 'VD', 'RH', 'NH', 'DY', 'HV',
]);

let byName: Map<string, string> | undefined;
/** The table without the demonyms: a country's name only ("Iran", "United Kingdom", "UK", not "Iranian"). */
let byCountryName: Map<string, string> | undefined;

function table(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      let name: string | undefined;
      try {
        name = display.of(code);
      } catch {
        name = undefined;
      }
      if (!name || name === code || RETIRED_CODES.has(code)) continue;
      for (const variant of [name, name.replace(/\([^)]*\)/g, ''), name.replace(/[()]/g, '')]) {
        if (!byName.has(key(variant))) byName.set(key(variant), code);
      }
    }
  }
  for (const [name, code] of Object.entries(PUBLISHER_SPELLINGS)) byName.set(key(name), code);
  byCountryName = new Map([...byName].filter(([name]) => name !== 'palestinian'));
  for (const [name, code] of Object.entries(DEMONYMS)) byName.set(key(name), code);
  return byName;
}

/**
 * ISO alpha-2 of a country written by its name in words already normalised ("iran", "united kingdom", "uk"), not
 * as a demonym ("iranian") or a two-letter code ("as" is a legal form, not American Samoa); undefined otherwise.
 */
export function countryNamedBy(words: string): string | undefined {
  table();
  return words.length > 2 || words === 'uk' ? byCountryName!.get(words) : undefined;
}

/** ISO alpha-2 for a country code or name; undefined when not recognised. */
export function countryCode(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const upper = trimmed.toUpperCase();
    return upper === 'UK' ? 'GB' : upper;
  }
  const names = table();
  const k = key(trimmed);
  const direct = names.get(k);
  if (direct) return direct;
  // "Iran (Islamic Republic of)", "Korea, North" → without the parenthetical or after reordering.
  const withoutParenthetical = key(trimmed.replace(/\([^)]*\)/g, ''));
  return names.get(withoutParenthetical) ?? names.get(key(trimmed.split(',').reverse().join(' ')));
}

/** A country as stored on an entity: the ISO code when recognised, else the publisher's text. */
export function normaliseCountry(value: string | undefined | null): string | undefined {
  if (!value || !value.trim()) return undefined;
  return countryCode(value) ?? value.trim();
}

let codes: Set<string> | undefined;

export function isKnownCountryCode(code: string): boolean {
  codes ??= new Set(table().values());
  return codes.has(code.toUpperCase());
}
