// A simplified bidirectional split for left-to-right pages.
// fontkit shapes Arabic (joining forms) and reverses glyphs into visual order only when a whole text run is
// right-to-left; a mixed run such as "Name: محمد" is laid out as Latin, unjoined and in logical order.
// Splitting each string into direction runs and laying them out one after another (left to right) gives
// the correct picture for a left-to-right paragraph with embedded right-to-left names. It is not the full
// Unicode Bidirectional Algorithm: digits and punctuation next to right-to-left words are resolved
// as left-to-right, and right-to-left paragraphs are not supported.

export interface DirectionRun {
  text: string;
  rtl: boolean;
}

const STRONG_RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/u;
const STRONG_LTR = /[\p{L}\p{N}]/u;

type Direction = 'rtl' | 'ltr' | 'neutral';

function directionOf(char: string): Direction {
  if (STRONG_RTL.test(char)) return 'rtl';
  if (STRONG_LTR.test(char)) return 'ltr';
  return 'neutral';
}

export function directionRuns(text: string): DirectionRun[] {
  if (!STRONG_RTL.test(text)) return text === '' ? [] : [{ text, rtl: false }];
  const chars = Array.from(text);
  const directions = chars.map(directionOf);
  // A neutral (space, punctuation) joins a right-to-left run only when it sits between two right-to-left
  // characters; everywhere else the page's left-to-right direction wins.
  const nextStrongIsRtl: boolean[] = new Array(chars.length);
  let next: Direction = 'neutral';
  for (let index = chars.length - 1; index >= 0; index -= 1) {
    nextStrongIsRtl[index] = next === 'rtl';
    if (directions[index] !== 'neutral') next = directions[index];
  }
  const runs: DirectionRun[] = [];
  let previous: Direction = 'neutral';
  chars.forEach((char, index) => {
    const direction = directions[index];
    const rtl = direction === 'neutral' ? previous === 'rtl' && nextStrongIsRtl[index] : direction === 'rtl';
    if (direction !== 'neutral') previous = direction;
    const last = runs[runs.length - 1];
    if (last && last.rtl === rtl) last.text += char;
    else runs.push({ text: char, rtl });
  });
  return runs;
}
