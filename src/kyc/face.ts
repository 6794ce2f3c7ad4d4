// Face detection and face embeddings with @vladmandic/human on the tfjs WebAssembly backend. Models (BlazeFace
// detector, FaceMesh, FaceRes descriptor, anti-spoof and liveness) are read from the package's models/ folder
// through a file-system IO router: no network. One engine per pool worker, warmed once.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config, Human } from '@vladmandic/human';
import type { RawPixels } from './intake.ts';

const require = createRequire(import.meta.url);
const HUMAN_DIST = path.dirname(require.resolve('@vladmandic/human'));
const MODEL_DIR = path.join(HUMAN_DIST, '..', 'models');
const WASM_DIR = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
const FILE_SCHEME = 'file://';

export interface DetectedFace {
  /** Detector confidence 0–1. */
  score: number;
  /** [x, y, width, height] in the analysed image's pixels. */
  box: [number, number, number, number];
  /** FaceRes descriptor (1024 values). */
  embedding: number[];
  /** Anti-spoof model: probability the face is a real face rather than a photo/screen (weak signal). */
  real: number | null;
  /** Liveness model probability (weak signal). */
  live: number | null;
}

export interface FaceEngine {
  /** livenessModels: also run the anti-spoof and liveness models (pointless on a printed document portrait). */
  detect(pixels: RawPixels, options?: { livenessModels?: boolean }): Promise<DetectedFace[]>;
  close(): Promise<void>;
}

/** Cosine similarity of two embeddings, 0–1 (negative correlations clipped to 0). */
export function faceSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? Math.max(0, dot / Math.sqrt(na * nb)) : 0;
}

const HUMAN_CONFIG: Partial<Config> = {
  backend: 'wasm',
  wasmPath: `${WASM_DIR}/`,
  modelBasePath: `${FILE_SCHEME}${MODEL_DIR}/`,
  debug: false,
  async: true,
  warmup: 'none',
  // Every image is independent: no frame-to-frame caching.
  cacheSensitivity: 0,
  filter: { enabled: false },
  face: {
    enabled: true,
    detector: { rotation: false, maxDetected: 5, minConfidence: 0.5, iouThreshold: 0.1, skipFrames: 0, skipTime: 0 },
    mesh: { enabled: true },
    attention: { enabled: false },
    iris: { enabled: false },
    description: { enabled: true, skipFrames: 0, skipTime: 0 },
    emotion: { enabled: false },
    antispoof: { enabled: true, skipFrames: 0, skipTime: 0 },
    liveness: { enabled: true, skipFrames: 0, skipTime: 0 },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
};

type HumanModule = { Human: new (config: Partial<Config>) => Human };

/** Serves tfjs model URLs under file:// from disk; tfjs-core itself only knows http(s) and browser storage. */
function registerFileLoader(human: Human): void {
  const io = human.tf.io as unknown as {
    registerLoadRouter(router: (url: string | string[]) => unknown): void;
    getModelArtifactsForJSON(json: unknown, loadWeights: (manifest: { paths: string[]; weights: unknown[] }[]) => Promise<[unknown[], ArrayBuffer]>): Promise<unknown>;
  };
  io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith(FILE_SCHEME)) return null;
    const file = url.slice(FILE_SCHEME.length);
    return {
      load: async () =>
        io.getModelArtifactsForJSON(JSON.parse(await readFile(file, 'utf8')), async (manifest) => {
          const specs: unknown[] = [];
          const buffers: Buffer[] = [];
          for (const group of manifest) {
            specs.push(...group.weights);
            for (const part of group.paths) buffers.push(await readFile(path.join(path.dirname(file), part)));
          }
          const all = Buffer.concat(buffers);
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        }),
    };
  });
}

/** maxFaces: faces reported per image; a handful is enough to tell "one face" from "several". */
export async function createFaceEngine(options: { maxFaces?: number } = {}): Promise<FaceEngine> {
  const { Human: HumanClass } = require(path.join(HUMAN_DIST, 'human.node-wasm.js')) as HumanModule;
  const config = structuredClone(HUMAN_CONFIG);
  config.face!.detector!.maxDetected = options.maxFaces ?? 5;
  const human = new HumanClass(config);
  registerFileLoader(human);
  await human.load();
  const tf = human.tf;

  const detect: FaceEngine['detect'] = async (pixels, options = {}) => {
    const tensor = tf.tensor3d(pixels.data, [pixels.height, pixels.width, 3], 'int32');
    // Human merges a per-call config into its own for good, so both switches are always stated.
    const enabled = options.livenessModels !== false;
    try {
      const result = await human.detect(tensor, { face: { antispoof: { enabled }, liveness: { enabled } } });
      return result.face.map((f) => ({
        score: Math.round((f.boxScore ?? f.score) * 1000) / 1000,
        box: f.box,
        embedding: Array.from(f.embedding ?? []),
        real: f.real ?? null,
        live: f.live ?? null,
      }));
    } finally {
      tf.dispose(tensor);
    }
  };
  // Warm-up: the first inference compiles the WebAssembly kernels for every model shape.
  await detect({ data: new Uint8Array(64 * 64 * 3), width: 64, height: 64 });
  return {
    detect,
    async close() {
      tf.disposeVariables();
      human.reset();
    },
  };
}
