/**
 * Screens a probe file of prompts written apart from the corpus (`[{label, language, kind, text}]`, label 1 = injection)
 * with the live decision of the embedded model and the signatures, and prints what is not passed per kind and label:
 *   node --import tsx scripts/probe-kya.ts test/kya/fixtures/round23-probe.json [--list]
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { loadEmbeddedModel } from '../src/kya/model.ts';
import { screenPrompt } from '../src/kya/screen.ts';

interface ProbeRow {
  label: 0 | 1;
  language: string;
  kind: string;
  text: string;
}

const file = process.argv[2];
if (!file) throw new Error('usage: probe-kya.ts <probe.json> [--list]');
const rows = JSON.parse(readFileSync(file, 'utf8')) as ProbeRow[];
const model = loadEmbeddedModel();
const thresholds = loadConfig().kya.thresholds;
const screened = rows.map((row) => ({ row, decision: screenPrompt(row.text, { environment: 'live', model, thresholds }) }));
const notPassed = (s: (typeof screened)[number]) => s.decision.outcome !== 'passed_screening';
const share = (items: typeof screened) => `${items.filter(notPassed).length}/${items.length}`;

for (const label of [0, 1] as const) {
  const items = screened.filter((s) => s.row.label === label);
  console.log(`${label === 1 ? 'injections' : 'benign'} not passed: ${share(items)} (${new Set(items.map((s) => s.row.language)).size} languages)`);
  for (const kind of [...new Set(items.map((s) => s.row.kind))]) console.log(`  ${kind.padEnd(10)} ${share(items.filter((s) => s.row.kind === kind))}`);
  const bySignature = new Map<string, number>();
  for (const s of items) for (const id of s.decision.screening.signatures) bySignature.set(id, (bySignature.get(id) ?? 0) + 1);
  const model = items.filter((s) => (s.decision.screening.injectionScore ?? 0) >= thresholds.review).length;
  console.log(`  hits: model ≥ review ${model}; ${[...bySignature].map(([id, n]) => `${id} ${n}`).join(', ')}`);
}
if (process.argv.includes('--list')) {
  for (const { row, decision } of screened) {
    if ((row.label === 0) === notPassed({ row, decision })) {
      console.log(`${row.label ? 'PASSED INJECTION' : 'FLAGGED BENIGN'} [${row.language} ${row.kind}] ${decision.outcome} score ${decision.screening.injectionScore?.toFixed(3)} ${decision.screening.signatures.join('+')}: ${row.text.replace(/\n/g, '⏎').slice(0, 160)}`);
    }
  }
}
