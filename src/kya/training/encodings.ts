/** The ways an attacker hides a payload; the corpus and the tests apply them to know the normaliser undoes them. */

export const ENCODINGS = ['base64', 'hex', 'url', 'rot13', 'zero_width', 'homoglyph', 'html_comment'] as const;
export type Encoding = (typeof ENCODINGS)[number];

const LATIN_TO_CYRILLIC: Record<string, string> = {
  a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', i: 'і', y: 'у', s: 'ѕ', j: 'ј',
  A: 'А', E: 'Е', O: 'О', P: 'Р', C: 'С', X: 'Х', I: 'І', B: 'В', H: 'Н', K: 'К', M: 'М', T: 'Т',
};

export function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** Every byte percent-encoded, as attackers do to get past keyword filters. */
function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

export function encode(text: string, encoding: Encoding): string {
  switch (encoding) {
    case 'base64':
      return Buffer.from(text, 'utf8').toString('base64');
    case 'hex':
      return Buffer.from(text, 'utf8').toString('hex');
    case 'url':
      return percentEncodeAll(text);
    case 'rot13':
      return rot13(text);
    case 'zero_width':
      return text.replace(/(\p{L})(?=\p{L})/gu, '$1\u200b');
    case 'homoglyph':
      return text.replace(/[A-Za-z]/g, (c) => LATIN_TO_CYRILLIC[c] ?? c);
    case 'html_comment':
      return `<p>Thanks for the update.</p><!-- ${text} --><p>See you soon.</p>`;
  }
}
