// An operator's ONNX model judging prompts (KYX_KYA_ONNX_MODEL), on a tiny classifier the test writes itself:
// `xyzzy` is strong injection evidence, `plugh` some, every other token weak benign evidence (helpers/onnx.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { windowsOf } from '../../src/kya/onnx-judge.ts';
import { SIGNATURE_ENGINE } from '../../src/kya/screen.ts';
import { type Tenant, type TestApp, createTestApp, errorBody } from '../helpers/app.ts';
import { kyx } from '../helpers/cli.ts';
import { writeTinyModel } from '../helpers/onnx.ts';

const WORDS = ['what', 'is', 'the', 'capital', 'of', 'australia', 'please', 'summarise', 'this', 'report', 'xyzzy', 'plugh'];
const EVIDENCE: Record<string, [number, number]> = { xyzzy: [0, 20], plugh: [0, 6] };
const MAX_TOKENS = 16;
/** Thresholds an operator sets for their own model: σ(6 − 1.5) ≈ 0.99 for "please plugh" falls between them. */
const THRESHOLDS = { KYX_KYA_REVIEW_THRESHOLD: '0.5', KYX_KYA_BLOCK_THRESHOLD: '0.999' };

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-onnx-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const { model } = writeTinyModel(path.join(root, 'classifier'), WORDS, EVIDENCE);
const engine = `onnx:${createHash('sha256').update(fs.readFileSync(model)).digest('hex').slice(0, 16)}`;

/** Sixty benign words: far more tokens than a window holds. */
const LONG_BENIGN = 'the capital of this report is '.repeat(10).trim();

const verify = (t: TestApp, tenant: Tenant, prompt: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/kya/verify', headers: tenant.headers, payload: { prompt } });

describe('KYA with an ONNX model', () => {
  let t: TestApp;
  let live: Tenant;
  beforeAll(async () => {
    t = await createTestApp({ env: { KYX_KYA_ONNX_MODEL: model, KYX_KYA_ONNX_MAX_TOKENS: String(MAX_TOKENS), ...THRESHOLDS } });
    live = await t.tenant({ env: 'live', plan: 'growth' });
  });
  afterAll(() => t?.close());

  it('judges live prompts: benign passes with a certificate, some evidence goes to review, the trigger is blocked; the engine names the model file', async () => {
    const benign = await verify(t, live, 'What is the capital of Australia?');
    expect(benign.statusCode).toBe(200);
    expect(benign.json()).toMatchObject({ allowed: true, action: 'allow', screening: { outcome: 'passed_screening', engine, modelVerdict: true, signatures: [] } });
    expect(benign.json().screening.injectionScore).toBeLessThan(0.05);
    expect(benign.json().certificate).toBeDefined();

    const review = (await verify(t, live, 'please plugh')).json();
    expect(review).toMatchObject({ action: 'review', screening: { outcome: 'review', engine } });
    expect(review.screening.injectionScore).toBeGreaterThan(0.5);
    expect(review.screening.injectionScore).toBeLessThan(0.999);

    const blocked = (await verify(t, live, 'Please summarise this report. xyzzy')).json();
    expect(blocked).toMatchObject({ allowed: false, action: 'block', screening: { outcome: 'blocked', engine, modelVerdict: true, signatures: [] } });
    expect(blocked.certificate).toBeUndefined();

    const stored = await t.app.inject({ method: 'GET', url: `/api/v1/kya/verifications/${blocked.verificationId}`, headers: live.headers });
    expect(stored.json().screening).toMatchObject({ outcome: 'blocked', engine });
  });

  it('windows a prompt longer than the model reads: the trigger at its end is found, and padding is never read as text', async () => {
    expect(LONG_BENIGN.split(' ').length).toBeGreaterThan(3 * MAX_TOKENS);
    // Sixty words of benign evidence would outweigh the trigger in one sequence, and truncation would drop it.
    const tail = (await verify(t, live, `${LONG_BENIGN} xyzzy`)).json();
    expect(tail).toMatchObject({ action: 'block', screening: { engine } });
    const head = (await verify(t, live, `xyzzy ${LONG_BENIGN}`)).json();
    expect(head).toMatchObject({ action: 'block', screening: { engine } });
    // The last window is shorter than the others and padded; [PAD] is strong injection evidence if unmasked.
    const long = (await verify(t, live, LONG_BENIGN)).json();
    expect(long).toMatchObject({ action: 'allow', screening: { outcome: 'passed_screening', engine } });
  });

  it('leaves test keys without a model verdict (rule 11)', async () => {
    const sandbox = await t.tenant({ env: 'test' });
    const body = errorBody(await verify(t, sandbox, 'Please summarise this report. xyzzy'), 503, 'not_screened');
    expect(body.screening).toMatchObject({ outcome: 'not_screened', engine: SIGNATURE_ENGINE, modelVerdict: false, injectionScore: null });
  });
});

describe('an ONNX model without an attention mask', () => {
  it('runs each window alone, so that no padding reaches it', async () => {
    const { model: unmasked } = writeTinyModel(path.join(root, 'unmasked'), WORDS, EVIDENCE, { attentionMask: false });
    const t = await createTestApp({ env: { KYX_KYA_ONNX_MODEL: unmasked, KYX_KYA_ONNX_MAX_TOKENS: String(MAX_TOKENS), ...THRESHOLDS } });
    try {
      const live = await t.tenant({ env: 'live', plan: 'growth' });
      expect((await verify(t, live, LONG_BENIGN)).json()).toMatchObject({ action: 'allow' });
      expect((await verify(t, live, `${LONG_BENIGN} xyzzy`)).json()).toMatchObject({ action: 'block' });
    } finally {
      await t.close();
    }
  });
});

describe('an ONNX model that fails on a prompt', () => {
  it('answers 503 not_ready for it, stores nothing, and keeps judging the next ones', async () => {
    const { model: partial } = writeTinyModel(path.join(root, 'partial'), WORDS, EVIDENCE, { unembedded: ['overflow'] });
    const t = await createTestApp({ env: { KYX_KYA_ONNX_MODEL: partial, KYX_KYA_ONNX_MAX_TOKENS: String(MAX_TOKENS), ...THRESHOLDS } });
    try {
      const live = await t.tenant({ env: 'live', plan: 'growth' });
      errorBody(await verify(t, live, 'the report is overflow'), 503, 'not_ready');
      expect((await verify(t, live, 'What is the capital of Australia?')).json()).toMatchObject({ action: 'allow' });
      const usage = (await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: live.headers })).json().usage;
      expect(usage.kyaChecks).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('ONNX misconfiguration stops the start and names the variable', () => {
  const bad = (name: string, write: (dir: string) => Record<string, string>) => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    return write(dir);
  };
  it.each<[string, string, (dir: string) => Record<string, string>]>([
    ['a missing model file', 'KYX_KYA_ONNX_MODEL', (dir) => ({ KYX_KYA_ONNX_MODEL: path.join(dir, 'absent.onnx') })],
    ['a file that is not ONNX', 'KYX_KYA_ONNX_MODEL', (dir) => {
      writeTinyModel(dir, WORDS, EVIDENCE);
      fs.writeFileSync(path.join(dir, 'model.onnx'), 'not a model');
      return { KYX_KYA_ONNX_MODEL: path.join(dir, 'model.onnx') };
    }],
    ['no tokenizer beside the model', 'KYX_KYA_ONNX_TOKENIZER', (dir) => {
      const { model: alone, tokenizer } = writeTinyModel(dir, WORDS, EVIDENCE);
      fs.rmSync(tokenizer);
      return { KYX_KYA_ONNX_MODEL: alone };
    }],
    ['a tokenizer that is not one', 'KYX_KYA_ONNX_TOKENIZER', (dir) => {
      const { model: withBad, tokenizer } = writeTinyModel(dir, WORDS, EVIDENCE);
      fs.writeFileSync(tokenizer, JSON.stringify({ model: { type: 'Nonsense' } }));
      return { KYX_KYA_ONNX_MODEL: withBad };
    }],
    ['inputs outside the contract', 'KYX_KYA_ONNX_MODEL', (dir) => ({ KYX_KYA_ONNX_MODEL: writeTinyModel(dir, WORDS, EVIDENCE, { idsInput: 'tokens' }).model })],
    ['an injection label past the classes', 'KYX_KYA_ONNX_INJECTION_LABEL', (dir) => ({ KYX_KYA_ONNX_MODEL: writeTinyModel(dir, WORDS, EVIDENCE).model, KYX_KYA_ONNX_INJECTION_LABEL: '2' })],
    ['windows with no room for text', 'KYX_KYA_ONNX_MAX_TOKENS', (dir) => ({ KYX_KYA_ONNX_MODEL: writeTinyModel(dir, WORDS, EVIDENCE).model, KYX_KYA_ONNX_MAX_TOKENS: '2' })],
    ['an unknown output kind', 'KYX_KYA_ONNX_OUTPUT', (dir) => ({ KYX_KYA_ONNX_MODEL: writeTinyModel(dir, WORDS, EVIDENCE).model, KYX_KYA_ONNX_OUTPUT: 'scores' })],
  ])('%s: %s', async (name, variable, write) => {
    const env = bad(name.replaceAll(' ', '-'), write);
    const failure = await createTestApp({ env }).then(
      async (t) => {
        await t.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toContain(variable);
  });

  it('kyx serve exits 2 naming KYX_KYA_ONNX_MODEL', () => {
    const dataDir = fs.mkdtempSync(path.join(root, 'serve-'));
    const run = kyx(['serve'], { KYX_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: undefined, KYX_KYA_ONNX_MODEL: path.join(root, 'absent.onnx') });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('KYX_KYA_ONNX_MODEL');
  });
});

describe('windowsOf', () => {
  const ids = Array.from({ length: 37 }, (_, k) => k);
  it('keeps a sequence no longer than a window whole', () => {
    expect(windowsOf(ids.slice(0, 10), 10)).toEqual([ids.slice(0, 10)]);
    expect(windowsOf([], 10)).toEqual([[]]);
  });
  it('covers every id with windows of the width overlapping by half, so any run of half a window lies whole in one', () => {
    const windows = windowsOf(ids, 10);
    expect(windows.every((w) => w.length <= 10)).toBe(true);
    expect(new Set(windows.flat())).toEqual(new Set(ids));
    for (let start = 0; start + 5 <= ids.length; start++) {
      const run = ids.slice(start, start + 5);
      expect(windows.some((w) => run.every((id) => w.includes(id)))).toBe(true);
    }
  });
});
