// KYC engine end to end (decode both images → analyse in the worker pool → decide) on the specimen passport and
// selfie re-encoded as ~1 MB and ~4 MB camera-like JPEGs: latency p50/p99, checks/s at concurrency 4, event-loop
// delay on the main thread while verifying, and time per stage. Baseline: sharp decoding the same two images to raw
// pixels and nothing else, in the same run. (The AML stage belongs to the AML engine and is benchmarked there.)
// Figures depend heavily on other load on the machine: read them with the load average.
import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { ROOT } from '../scripts/make-kyc-specimen.ts';
import { createKycEngine, type KycEngine } from '../src/kyc/engine.ts';
import { decideKyc } from '../src/kyc/decision.ts';
import { decodeImage } from '../src/kyc/intake.ts';
import { percentile } from './_stats.ts';

const SEQUENTIAL_RUNS = 6;
const CONCURRENT_CHECKS = 8;
const CONCURRENCY = 4;

/** Upscales and adds sensor-like grain until the JPEG is about targetBytes, as a phone photo would be. */
async function cameraJpeg(source: Buffer, targetBytes: number): Promise<Buffer> {
  const meta = await sharp(source).metadata();
  const encode = async (scale: number) => {
    const width = Math.round(meta.width * scale);
    const height = Math.round(meta.height * scale);
    const grain = { create: { width, height, channels: 3 as const, background: '#808080', noise: { type: 'gaussian' as const, mean: 128, sigma: 40 } } };
    const noise = await sharp(grain).raw().toBuffer();
    return sharp(source)
      .resize(width, height)
      .composite([{ input: noise, raw: { width, height, channels: 3 }, blend: 'overlay' }])
      .jpeg({ quality: 92 })
      .toBuffer();
  };
  // JPEG size grows about linearly with the pixel count at a fixed grain: one probe, one scaled encode.
  const probe = await encode(1);
  return encode(Math.sqrt(targetBytes / probe.length));
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

interface Sample {
  totalMs: number;
  decodeMs: number;
  qualityMs: number;
  ocrMs: number;
  faceMs: number;
  status: string;
}

async function verifyOnce(engine: KycEngine, document: Buffer, selfie: Buffer): Promise<Sample> {
  const start = performance.now();
  const [doc, self] = await Promise.all([decodeImage('documentImage', document), decodeImage('selfieImage', selfie)]);
  const decodeMs = performance.now() - start;
  const signals = await engine.analyse({
    documentType: 'passport',
    document: doc,
    selfie: self,
    metadata: { firstName: 'Anna Maria', lastName: 'Eriksson' },
    now: new Date().toISOString(),
  });
  // The specimen passes only with a test key (a live key fails it as a specimen).
  const decision = decideKyc({ signals, aml: { screened: false, status: 'clear', matches: [] }, environment: 'sandbox' });
  return { totalMs: performance.now() - start, decodeMs, ...signals.timings, status: decision.status };
}

async function baselineDecode(document: Buffer, selfie: Buffer): Promise<number> {
  const start = performance.now();
  await Promise.all([document, selfie].map((b) => sharp(b).rotate().raw().toBuffer()));
  return performance.now() - start;
}

export async function run(): Promise<void> {
  const [passport, selfie] = await Promise.all([
    readFile(path.join(ROOT, 'examples/kyc/passport.jpg')),
    readFile(path.join(ROOT, 'examples/kyc/selfie.jpg')),
  ]);
  const sizes = [
    { label: '~1 MB', document: await cameraJpeg(passport, 1_000_000), selfie: await cameraJpeg(selfie, 1_000_000) },
    { label: '~4 MB', document: await cameraJpeg(passport, 4_600_000), selfie: await cameraJpeg(selfie, 4_600_000) },
  ];

  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
  const warmStart = performance.now();
  const engine = await createKycEngine();
  console.log(`engine start (workers load and warm OCR + face models): ${ms(performance.now() - warmStart)}`);

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  try {
    for (const size of sizes) {
      const baseline: number[] = [];
      for (let i = 0; i < SEQUENTIAL_RUNS; i++) baseline.push(await baselineDecode(size.document, size.selfie));
      await verifyOnce(engine, size.document, size.selfie); // first run at this size: allocations, not models
      loopDelay.enable();
      const samples: Sample[] = [];
      for (let i = 0; i < SEQUENTIAL_RUNS; i++) samples.push(await verifyOnce(engine, size.document, size.selfie));
      loopDelay.disable();
      const p50 = percentile(samples.map((s) => s.totalMs), 50);
      const baseP50 = percentile(baseline, 50);
      console.log(
        `${size.label} (document ${(size.document.length / 1e6).toFixed(2)} MB, selfie ${(size.selfie.length / 1e6).toFixed(2)} MB), ` +
          `${SEQUENTIAL_RUNS} sequential checks, all ${[...new Set(samples.map((s) => s.status))].join('/')}:`,
      );
      console.log(`  end-to-end p50 ${ms(p50)}  p99 ${ms(percentile(samples.map((s) => s.totalMs), 99))}`);
      console.log(
        `  stages p50: decode ${ms(percentile(samples.map((s) => s.decodeMs), 50))}, quality ${ms(percentile(samples.map((s) => s.qualityMs), 50))}, ` +
          `OCR ${ms(percentile(samples.map((s) => s.ocrMs), 50))}, face ${ms(percentile(samples.map((s) => s.faceMs), 50))} (OCR and face overlap)`,
      );
      console.log(`  baseline (sharp decode of both images only) p50 ${ms(baseP50)}; end-to-end / baseline = ${(p50 / baseP50).toFixed(1)}×`);
    }

    loopDelay.reset();
    loopDelay.enable();
    const utilisationStart = performance.eventLoopUtilization();
    const size = sizes[0]!;
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < CONCURRENT_CHECKS) await verifyOnce(engine, size.document, size.selfie);
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const utilisation = performance.eventLoopUtilization(utilisationStart);
    loopDelay.disable();
    console.log(`concurrency ${CONCURRENCY}, ${CONCURRENT_CHECKS} checks at ${size.label}: ${(CONCURRENT_CHECKS / seconds).toFixed(2)} checks/s`);
    console.log(
      `event-loop delay while verifying: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms ` +
        `(10 ms sampling); main-thread event-loop utilisation ${(utilisation.utilization * 100).toFixed(1)} % ` +
        `(low utilisation with high delay means the thread waited for a CPU, not for KYC work)`,
    );
  } finally {
    await engine.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
