// Face match on real photos (npm run eval:faces): how often two photos of one person pass and two photos of
// different people do not, for each face-description model that ships in an installed npm package, alone and fused.
//
// Input: a folder of photos with `identities.csv` (header `file,identity`, one photo a line), given as
// `--dir PATH` or KYX_FACES_DIR. Third-party photos are read in place, never copied into the repository.
// Each photo is used as a KYC check uses it: its face is printed as the portrait of the specimen passport page
// (the document side) and the photo itself is the selfie. Every pair of photos (a, b), a ≠ b, compares the document
// of a with the selfie of b: same identity → genuine pair, different identities → impostor pair.
// Identities are split in two halves (sorted by name, alternately): thresholds are chosen on the calibration half
// and reported on the held-out half; no pair crosses the halves.
//   npm run eval:faces -- --dir /path/to/photos [--models faceres,mobilefacenet] [--template 0.34,0.4] [--pass 0.6]
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import type { AlignmentTemplate } from '../src/kyc/align.ts';
import { THRESHOLDS } from '../src/kyc/decision.ts';
import { DESCRIPTOR_MODELS, KYC_DESCRIPTORS, cosineSimilarity, createFaceEngine, type DescriptorModel, type DetectedFace } from '../src/kyc/face.ts';
import { decodeImage, type DecodedImage } from '../src/kyc/intake.ts';
import { renderPassport } from './make-kyc-specimen.ts';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const DIR = argument('--dir') ?? process.env.KYX_FACES_DIR;
if (!DIR) fail('usage: npm run eval:faces -- --dir PATH (or KYX_FACES_DIR=PATH): a folder with identities.csv (file,identity)');
const templateArgument = argument('--template')?.split(',').map(Number);
/** `--template 0.3,0.4` aligns every model with that eye distance and eye line instead of its own. */
const TEMPLATE: AlignmentTemplate | undefined = templateArgument && { eyeDistance: templateArgument[0]!, eyeLine: templateArgument[1]! };
/** The thresholds to report on the held-out half as they stand (default: the shipped ones). */
const PASS = Number(argument('--pass') ?? THRESHOLDS.faceMatchPass);
const REVIEW = Number(argument('--review') ?? THRESHOLDS.faceMatchReview);

/**
 * The descriptors asked for with `--models a,b`, in that order (their packages must be installed); by default all,
 * the one the KYC check uses first. The first is the one thresholds are suggested and reported for.
 */
function availableModels(): DescriptorModel[] {
  const all = Object.values(DESCRIPTOR_MODELS) as DescriptorModel[];
  const wanted = argument('--models')?.split(',');
  if (wanted) return wanted.map((name) => all.find((m) => m.name === name) ?? fail(`unknown model ${name}`));
  return [...KYC_DESCRIPTORS, ...all.filter((m) => !KYC_DESCRIPTORS.includes(m))];
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function readIdentities(dir: string): Promise<{ file: string; identity: string }[]> {
  const lines = (await readFile(path.join(dir, 'identities.csv'), 'utf8')).split(/\r?\n/).filter(Boolean);
  return lines.slice(1).map((line) => {
    const [file, identity] = line.split(',').map((s) => s.trim());
    return { file: file!, identity: identity! };
  });
}

/** The photo's face printed as the portrait of the specimen page, as a phone would capture the page. */
async function asDocument(photo: DecodedImage, face: DetectedFace): Promise<Buffer> {
  const [x, y, width, height] = face.box;
  // A passport portrait frames head and shoulders at 4:5; renderPassport cuts 240×300 at (110, 10) of its source.
  const cropWidth = Math.min(photo.pixels.width, Math.round(width * 1.6));
  const cropHeight = Math.min(photo.pixels.height, Math.round(cropWidth * 1.25));
  const left = Math.max(0, Math.min(photo.pixels.width - cropWidth, Math.round(x + width / 2 - cropWidth / 2)));
  const top = Math.max(0, Math.min(photo.pixels.height - cropHeight, Math.round(y + height * 0.45 - cropHeight * 0.45)));
  const raw = { raw: { width: photo.pixels.width, height: photo.pixels.height, channels: 3 as const } };
  const portrait = await sharp(Buffer.from(photo.pixels.data), raw)
    .extract({ left, top, width: cropWidth, height: cropHeight })
    .resize(240, 300, { fit: 'cover' })
    .extend({ left: 110, right: 110, top: 10, bottom: 10, background: '#808080' })
    .png()
    .toBuffer();
  return sharp(await renderPassport({ portrait })).jpeg({ quality: 90 }).toBuffer();
}

const largest = (faces: DetectedFace[]) => faces.reduce<DetectedFace | null>((a, b) => (!a || b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a), null);

interface Photo {
  file: string;
  identity: string;
  selfie: number[][];
  document: number[][];
}

const models = availableModels();
const engine = await createFaceEngine({ descriptors: models, maxFaces: 5, template: TEMPLATE });
const photos: Photo[] = [];
const missed: string[] = [];
const describeMs: number[] = [];
for (const { file, identity } of await readIdentities(DIR)) {
  const photo = await decodeImage('selfieImage', await readFile(path.join(DIR, file)));
  const face = largest(await engine.detect(photo.pixels, { livenessModels: false }));
  if (!face) {
    missed.push(`${file} (selfie)`);
    continue;
  }
  const document = await decodeImage('documentImage', await asDocument(photo, face));
  const documentFace = largest(await engine.detect(document.pixels, { livenessModels: false }));
  if (!documentFace) {
    missed.push(`${file} (document)`);
    continue;
  }
  const start = performance.now();
  const selfie = await engine.describe(photo.pixels, face);
  describeMs.push(performance.now() - start);
  photos.push({ file, identity, selfie, document: await engine.describe(document.pixels, documentFace) });
}
await engine.close();

const identities = [...new Set(photos.map((p) => p.identity))].sort();
const half = (identity: string) => (identities.indexOf(identity) % 2 === 0 ? 'calibration' : 'held-out');

/** Scorers: each model alone, then the mean of every model's similarity (fusion) when there are several. */
const scorers: { name: string; indices: number[] }[] = models.map((m, i) => ({ name: m.name, indices: [i] }));
for (let i = 0; i < models.length; i++) {
  for (let j = i + 1; j < models.length; j++) scorers.push({ name: `${models[i]!.name}+${models[j]!.name}`, indices: [i, j] });
}
if (models.length > 2) scorers.push({ name: 'all', indices: models.map((_, i) => i) });

type Pairs = { genuine: number[]; impostor: number[] };
function pairsOf(part: string, indices: number[]): Pairs {
  const result: Pairs = { genuine: [], impostor: [] };
  const members = photos.filter((p) => half(p.identity) === part);
  for (const a of members) {
    for (const b of members) {
      if (a === b) continue;
      const score = indices.reduce((sum, i) => sum + cosineSimilarity(a.document[i]!, b.selfie[i]!), 0) / indices.length;
      (a.identity === b.identity ? result.genuine : result.impostor).push(score);
    }
  }
  return result;
}

/** The lowest threshold that lets at most `far` of the impostor scores reach it. */
function thresholdAt(impostor: number[], far: number): number {
  const sorted = [...impostor].sort((a, b) => b - a);
  const allowed = Math.floor(far * sorted.length);
  return (sorted[allowed] ?? 0) + 1e-6;
}
const share = (scores: number[], threshold: number) => scores.filter((s) => s >= threshold).length / (scores.length || 1);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
function distribution(scores: number[]): string {
  const s = [...scores].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(3);
  return s.length ? `${at(0)} / ${at(0.05)} / ${at(0.5)} / ${at(0.95)} / ${s.at(-1)!.toFixed(3)}` : '–';
}

console.log(`# Face match on ${photos.length} photos of ${identities.length} identities (${DIR})`);
const templateOf = (m: DescriptorModel) => TEMPLATE ?? m.template;
console.log(`models (eye distance, eye line): ${models.map((m) => `${m.name} (${templateOf(m).eyeDistance}, ${templateOf(m).eyeLine})`).join(', ')}`);
if (missed.length) console.log(`no face found: ${missed.join(', ')}`);
describeMs.sort((a, b) => a - b);
console.log(`describe (all models, one face): p50 ${describeMs[Math.floor(describeMs.length / 2)]?.toFixed(0)} ms`);
for (const part of ['calibration', 'held-out']) {
  const counts = pairsOf(part, [0]);
  const people = identities.filter((i) => half(i) === part).length;
  console.log(`${part}: ${people} identities, ${counts.genuine.length} genuine and ${counts.impostor.length} impostor pairs`);
}
console.log('\nThresholds chosen on the calibration half at FAR 1 %, 0.1 % and 0 (above every impostor), applied to the held-out half:\n');
console.log('| scorer | thr FAR 1 % | calibration TAR | held-out TAR / FAR | thr FAR 0.1 % | calibration TAR | held-out TAR / FAR | thr FAR 0 | calibration TAR | held-out TAR / FAR | genuine min/p5/p50/p95/max (held-out) | impostor (held-out) |');
console.log(`|---|${'---|'.repeat(11)}`);
for (const scorer of scorers) {
  const calibration = pairsOf('calibration', scorer.indices);
  const heldOut = pairsOf('held-out', scorer.indices);
  const cells = [0.01, 0.001, 0].map((far) => {
    const threshold = thresholdAt(calibration.impostor, far);
    return `${threshold.toFixed(3)} | ${pct(share(calibration.genuine, threshold))} | ${pct(share(heldOut.genuine, threshold))} / ${pct(share(heldOut.impostor, threshold))}`;
  });
  console.log(`| ${scorer.name} | ${cells.join(' | ')} | ${distribution(heldOut.genuine)} | ${distribution(heldOut.impostor)} |`);
}
const calibrationFirst = pairsOf('calibration', [0]);
console.log(
  `\n${models[0]!.name}, chosen on the calibration half: pass ≥ ${(Math.ceil(thresholdAt(calibrationFirst.impostor, 0) * 1000) / 1000).toFixed(3)} (above every impostor), ` +
    `review ≥ ${(Math.floor(thresholdAt(calibrationFirst.impostor, 0.01) * 1000) / 1000).toFixed(3)} (FAR 1 %); calibration genuine ${distribution(calibrationFirst.genuine)}, impostor ${distribution(calibrationFirst.impostor)}`,
);
const shipped = pairsOf('held-out', [0]);
const all = { genuine: [...calibrationFirst.genuine, ...shipped.genuine], impostor: [...calibrationFirst.impostor, ...shipped.impostor] };
console.log(`\n${models[0]!.name} at pass ≥ ${PASS}, review ≥ ${REVIEW}:`);
for (const [name, set] of [['held-out', shipped], ['both halves', all]] as const) {
  const review = set.genuine.filter((s) => s >= REVIEW && s < PASS).length;
  console.log(
    `  ${name}: genuine pass ${pct(share(set.genuine, PASS))} (review ${review}), impostor pass ${set.impostor.filter((s) => s >= PASS).length} of ${set.impostor.length}, impostor review ${set.impostor.filter((s) => s >= REVIEW && s < PASS).length}`,
  );
}
