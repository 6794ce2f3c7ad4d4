// Report render time per type, RPT-016 bundle build time and archive size. Baseline, measured in the same run:
// a one-line pdfkit document with a standard (non-embedded) font, i.e. what pdfkit costs before any layout,
// embedded font or content. Targets: report ≤ 50 ms, bundle ≤ 300 ms.
import os from 'node:os';
import PDFDocument from 'pdfkit';
import { buildBundleArchive, warmUpReports, type JsonRecord, type ReportMeta } from '../src/reports/index.ts';
import { TENANT, amlRecord, catalogue, kindOf, kyaRecord, kybRecord, kycRecord, metaFor } from '../test/reports/fixtures.ts';

const RUNS = 30;
const REPORT_TARGET_MS = 50;
const BUNDLE_TARGET_MS = 300;

interface Timing {
  median: number;
  p95: number;
  /** CPU time of this process per run: unlike wall time, it does not grow while other processes hold the CPU. */
  cpuMedian: number;
}

async function timeRuns(runs: number, task: () => Promise<unknown>): Promise<Timing> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await task();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
  return {
    median: median(wall),
    p95: sorted(wall)[Math.min(runs - 1, Math.ceil(runs * 0.95) - 1)],
    cpuMedian: median(cpu),
  };
}

function emptyPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ info: { CreationDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.text('baseline');
  doc.end();
  return done;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

export async function run(): Promise<void> {
  const kycMeta = metaFor(String(kycRecord.checkId), String(kycRecord.completedAt), 'sandbox');
  const reports: Array<[string, JsonRecord, ReportMeta]> = [
    ['RPT-001', kycRecord, kycMeta],
    ['RPT-002', kybRecord, metaFor(String(kybRecord.kybId), String(kybRecord.completedAt))],
    ['RPT-003', amlRecord, metaFor(String(amlRecord.screeningId), String(amlRecord.screenedAt))],
    ['RPT-KYA', kyaRecord, metaFor(String(kyaRecord.verificationId), String(kyaRecord.createdAt))],
  ];

  const coldStart = performance.now();
  await warmUpReports();
  const cold = performance.now() - coldStart;

  await timeRuns(5, emptyPdf);
  const baseline = await timeRuns(RUNS, emptyPdf);
  console.log(
    `baseline: one-line pdfkit document, standard font: median ${fmt(baseline.median)} wall, ${fmt(baseline.cpuMedian)} CPU`,
  );
  console.log(`load average now ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores: wall time includes waiting for a CPU`);
  console.log(`warmUpReports() in a fresh process (parses the DejaVu fonts once): ${fmt(cold)}`);

  const results: Array<{ label: string; median: number; target: number }> = [];
  for (const [code, record, meta] of reports) {
    await timeRuns(3, () => catalogue.render(code, record, meta));
    const size = (await catalogue.render(code, record, meta)).length;
    const timing = await timeRuns(RUNS, () => catalogue.render(code, record, meta));
    results.push({ label: code, median: timing.median, target: REPORT_TARGET_MS });
    console.log(
      `${code}: median ${fmt(timing.median)} wall (p95 ${fmt(timing.p95)}), ${fmt(timing.cpuMedian)} CPU, ${size} bytes, ` +
        `${(timing.median / baseline.median).toFixed(1)}× baseline (target ≤ ${REPORT_TARGET_MS} ms)`,
    );
  }

  const longRecord = {
    ...kycRecord,
    checks: Array.from({ length: 150 }, (_, index) => ({ name: `check_${index}`, result: 'passed', reasons: [`reason ${index}`] })),
  };
  const long = await timeRuns(10, () => catalogue.render('RPT-001', longRecord, kycMeta));
  console.log(`RPT-001 with 150 checks (multi-page): median ${fmt(long.median)} wall, ${fmt(long.cpuMedian)} CPU`);

  const buildKycBundle = () =>
    buildBundleArchive(catalogue, {
      bundleId: 'bnd_bench0000000001',
      regulatorRef: 'BENCH/1',
      check: { id: String(kycRecord.checkId), kind: kindOf('kyc'), tenant: TENANT, environment: 'sandbox', record: kycRecord },
      requestedTypes: ['RPT-001'],
      produce: (code) => catalogue.render(code, kycRecord, kycMeta),
      createdAt: '2025-03-15T08:30:14.000Z',
    });
  await timeRuns(3, buildKycBundle);
  const archiveSize = (await buildKycBundle()).length;
  const bundle = await timeRuns(RUNS, buildKycBundle);
  results.push({ label: 'RPT-016 bundle', median: bundle.median, target: BUNDLE_TARGET_MS });
  console.log(
    `RPT-016 bundle for one KYC check (renders RPT-001 and the cover, zips): median ${fmt(bundle.median)} wall ` +
      `(p95 ${fmt(bundle.p95)}), ${fmt(bundle.cpuMedian)} CPU, archive ${archiveSize} bytes, ${(bundle.median / baseline.median).toFixed(1)}× baseline ` +
      `(target ≤ ${BUNDLE_TARGET_MS} ms)`,
  );

  const missed = results.filter((result) => result.median > result.target);
  console.log(
    missed.length === 0 ? 'targets (wall median): all met' : `targets missed (wall median): ${missed.map((result) => result.label).join(', ')}`,
  );
}
