// The KYC engine the HTTP layer holds: a warmed worker pool that analyses decoded images into signals.
import { availableParallelism } from 'node:os';
import { createAnalysisPool } from './pool.ts';
import type { AnalyseInput, KycSignals } from './types.ts';

export interface KycEngineOptions {
  /**
   * Analysis workers, each with its own OCR and face models. Default: min(2, cores). About 450 MB RSS each once warm:
   * a process with one pool, after six checks of examples/kyc per worker, 98 MB without it, 614 MB with one worker,
   * 1009 MB with two (2026-11-28). The parts measured alone earlier (215 MB with FaceRes, +60 MB for the ResNet-34
   * descriptor, +~45 MB for the OCR's second tesseract thread, issue #14) add up to less than the whole.
   */
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
