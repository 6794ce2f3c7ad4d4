// Company name comparison. Registers spell the same company differently ("Acme Ltd", "ACME LIMITED",
// "Acme Limited."): the legal form is compared as a canonical form, and the rest of the name fuzzily.
import anyAscii from 'any-ascii';
import { editSimilarity } from '../edit-distance.ts';

/** Canonical legal form → the ways it is written (already normalised: lower case, ASCII, no punctuation). */
const LEGAL_FORMS: Record<string, string[]> = {
  ltd: ['limited', 'ltd', 'cyfyngedig', 'cyf'],
  plc: ['public limited company', 'plc', 'ccc', 'cwmni cyfyngedig cyhoeddus'],
  llp: ['limited liability partnership', 'llp'],
  lp: ['limited partnership', 'lp'],
  llc: ['limited liability company', 'llc'],
  inc: ['incorporated', 'inc'],
  corp: ['corporation', 'corp'],
  cic: ['community interest company', 'cic'],
  gmbh: ['gesellschaft mit beschrankter haftung', 'gmbh'],
  ag: ['aktiengesellschaft', 'ag'],
  sa: ['societe anonyme', 'sociedad anonima', 'sa'],
  sas: ['societe par actions simplifiee', 'sas'],
  sarl: ['societe a responsabilite limitee', 'sarl'],
  bv: ['besloten vennootschap', 'bv'],
  nv: ['naamloze vennootschap', 'nv'],
  spa: ['societa per azioni', 'spa'],
  srl: ['societa a responsabilita limitata', 'srl'],
  sl: ['sociedad limitada', 'sl'],
  ab: ['aktiebolag', 'ab'],
  as: ['aksjeselskap', 'as'],
  oy: ['osakeyhtio', 'oy'],
  sro: ['spolecnost s rucenim omezenym', 'sro'],
  spzoo: ['sp z o o', 'spzoo'],
};

const FORM_SUFFIXES: Array<{ canonical: string; tokens: string[] }> = Object.entries(LEGAL_FORMS)
  .flatMap(([canonical, variants]) => variants.map((variant) => ({ canonical, tokens: variant.split(' ') })))
  .sort((a, b) => b.tokens.length - a.tokens.length);

export interface ParsedCompanyName {
  core: string;
  legalForm: string | null;
}

export function normaliseCompanyName(name: string): string {
  return anyAscii(name)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function parseCompanyName(name: string): ParsedCompanyName {
  const tokens = normaliseCompanyName(name).split(' ').filter(Boolean);
  if (tokens[0] === 'the' && tokens.length > 1) tokens.shift();
  // The form usually ends the name; some registers (French, Spanish VAT records) put it first.
  for (const form of FORM_SUFFIXES) {
    const length = form.tokens.length;
    if (tokens.length <= length) continue;
    const written = form.tokens.join(' ');
    if (tokens.slice(-length).join(' ') === written) {
      return { core: tokens.slice(0, -length).join(' '), legalForm: form.canonical };
    }
    if (tokens.slice(0, length).join(' ') === written) {
      return { core: tokens.slice(length).join(' '), legalForm: form.canonical };
    }
  }
  return { core: tokens.join(' '), legalForm: null };
}

const sortedTokens = (text: string) => text.split(' ').sort().join(' ');

/**
 * 0–1 similarity of two company names: edit-distance ratio of the names without their legal form (in written and
 * in sorted word order, whichever is closer), lowered by 0.1 when both state a legal form and the forms differ.
 */
export function companyNameSimilarity(a: string, b: string): number {
  const left = parseCompanyName(a);
  const right = parseCompanyName(b);
  const core = Math.max(editSimilarity(left.core, right.core), editSimilarity(sortedTokens(left.core), sortedTokens(right.core)));
  const formPenalty = left.legalForm && right.legalForm && left.legalForm !== right.legalForm ? 0.1 : 0;
  return Math.max(0, Math.round((core - formPenalty) * 1000) / 1000);
}
