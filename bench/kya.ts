/**
 * KYA screening latency in-process: the whole screener (normaliser, signatures, embedded model, decision) on a live
 * key at 100, 4,000 and 32,000 characters of English, 32,000 of Russian (NFKC, look-alike mapping) and 32,000 packed
 * with override-like phrases (the signatures' worst case, also timed alone). Baseline in the same run: normalisation alone on the same prompts,
 * so the ratio shows what judging costs on top of reading the prompt. Wall-clock percentiles include whatever
 * else the machine runs, so the load average and the mean CPU time per call are printed with them.
 */
import { loadavg } from 'node:os';
import { loadEmbeddedModel } from '../src/kya/model.ts';
import { normalisePrompt } from '../src/kya/normalise.ts';
import { screenPrompt } from '../src/kya/screen.ts';
import { matchSignatures } from '../src/kya/signatures.ts';
import { percentile } from './_stats.ts';

const SENTENCES = [
  'Please summarise the attached quarterly report for the finance team.',
  'The northern region grew by four percent while costs stayed flat.',
  'Schedule a follow-up meeting with the auditors next Tuesday at ten.',
  'Ignore the draft figures in the appendix; the final ones are in table 3.',
  'Our security policy asks employees to report phishing emails promptly.',
];

const RUSSIAN_SENTENCES = [
  'Пожалуйста, подготовьте краткое резюме квартального отчёта для финансового отдела.',
  'Северный регион вырос на четыре процента, а расходы остались прежними.',
  'Не обращайте внимания на черновые цифры в приложении; окончательные приведены в таблице 3.',
];

/**
 * Ordinary-looking sentences packed with override-like phrases that address no one (English, Danish, Malay, Tamil,
 * Swedish): every phrase runs the per-match checks, the worst case for the signatures (issue #15).
 */
const OVERRIDE_LIKE_SENTENCES = [
  'The team may ignore the old rules in appendix 4 for this quarter.',
  'Vi kan ignorere de gamle regler i bilaget for dette kvartal.',
  'Kita boleh abaikan peraturan lama dalam lampiran ini.',
  'பழைய விதிகள் பற்றி குழு புறக்கணி என்று சொன்னது.',
  'Teamet kan ignorera de gamla reglerna i bilagan.',
];

/** A prompt as the HTTP layer gets it: a flat string from JSON.parse, not a slice of a concatenation. */
function promptOf(length: number, sentences: readonly string[] = SENTENCES): string {
  let text = '';
  for (let i = 0; text.length < length; i++) text += `${sentences[i % sentences.length]} `;
  return JSON.parse(JSON.stringify(text.slice(0, length))) as string;
}

function measure(run: () => void, iterations: number): { p50: number; p99: number; cpu: number } {
  for (let i = 0; i < Math.min(200, iterations); i++) run();
  const samples: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), cpu: (cpu.user + cpu.system) / 1000 / iterations };
}

export async function run(): Promise<void> {
  const model = loadEmbeddedModel();
  console.log(`KYA screening in-process (${model.engine}); baseline = normalisation alone; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const cases: Array<[string, string]> = [
    ...[100, 4_000, 32_000].map((length) => [`${String(length).padStart(6)} chars`, promptOf(length)] as [string, string]),
    ['32000 ru   ', promptOf(32_000, RUSSIAN_SENTENCES)],
    ['32000 worst', promptOf(32_000, OVERRIDE_LIKE_SENTENCES)],
  ];
  for (const [name, prompt] of cases) {
    const iterations = prompt.length > 10_000 ? 1_500 : 4_000;
    const screening = measure(() => screenPrompt(prompt, { environment: 'live', model }), iterations);
    const baseline = measure(() => normalisePrompt(prompt), iterations);
    console.log(`${name}  screen p50 ${screening.p50.toFixed(3)} ms  p99 ${screening.p99.toFixed(3)} ms  cpu/call ${screening.cpu.toFixed(3)} ms | ` +
      `normalise p50 ${baseline.p50.toFixed(3)} ms  p99 ${baseline.p99.toFixed(3)} ms | ratio p99 ${(screening.p99 / baseline.p99).toFixed(1)}x`);
  }
  // The fast stage's target is p99 <= 1 ms at 32,000 characters. Baseline, main at 941c287 on this prompt: the
  // signatures alone took 151 ms CPU per call at load 10 (round 27's signature cost notes; 9-13 ms after it).
  const worst = normalisePrompt(promptOf(32_000, OVERRIDE_LIKE_SENTENCES));
  const signatures = measure(() => matchSignatures(worst), 300);
  console.log(`32000 worst  signatures alone p50 ${signatures.p50.toFixed(3)} ms  p99 ${signatures.p99.toFixed(3)} ms  cpu/call ${signatures.cpu.toFixed(3)} ms (target p99 <= 1 ms)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
