// The KYC engine the HTTP layer holds: a warmed worker pool that analyses decoded images into signals.
import { availableParallelism } from 'node:os';
import { createAnalysisPool } from './pool.ts';
import type { AnalyseInput, KycSignals } from './types.ts';

export interface KycEngineOptions {
  /** Analysis workers, each with its own OCR and face models (~320 MB RSS each: 215 MB measured with FaceRes, +60 MB measured for the ResNet-34 descriptor, +~45 MB measured for the OCR's second tesseract thread, issue #14). Default: min(2, cores). */
  workers?: number;
}

export interface KycEngine {
  /** Measures both images: quality, MRZ/OCR reading, faces. Throws only on an internal failure. */
  analyse(input: AnalyseInput): Promise<KycSignals>;
  close(): Promise<void>;
}

/** Starts the workers and waits until every one has loaded and warmed its models. */
export async function createKycEngine(options: KycEngineOptions = {}): Promise<KycEngine> {
  const pool = await createAnalysisPool(Math.max(1, options.workers ?? Math.min(2, availableParallelism())));
  return {
    analyse: (input) => pool.run(input),
    close: () => pool.close(),
  };
}
