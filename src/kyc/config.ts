// The KYC section of the configuration: analysis workers and images kept at rest.
import { ConfigError, type EnvReader } from '../env.ts';

export interface KycConfig {
  /** Analysis workers (~450 MB resident each once warm, each loads its own OCR and face models; measured in engine.ts). */
  workers: number;
  /** AES-256 key: raw images are kept, encrypted, only when KYX_KEEP_IMAGES is on. */
  imageKey?: Buffer;
}

/** KYX_IMAGE_KEY: 32 bytes as base64 or hex. */
export function parseImageKey(raw: string | undefined): Buffer {
  const text = (raw ?? '').trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : null;
  if (!key || key.length !== 32) {
    throw new ConfigError('KYX_KEEP_IMAGES is set: KYX_IMAGE_KEY must be a 32-byte key, base64 (44 characters) or hex (64 characters)');
  }
  return key;
}

export function kycConfig(env: EnvReader): KycConfig {
  const workers = env.integer('KYX_KYC_WORKERS', { description: 'KYC analysis workers (~450 MB resident each)', fallback: 1, min: 1, max: 16 });
  const keepImages = env.flag('KYX_KEEP_IMAGES', { description: 'keep submitted images, AES-256-GCM encrypted with KYX_IMAGE_KEY', fallback: false });
  const imageKey = env.string('KYX_IMAGE_KEY', { description: 'AES-256 key for kept images: 32 bytes, base64 or hex', sensitivity: 'secret' });
  return { workers, ...(keepImages ? { imageKey: parseImageKey(imageKey) } : {}) };
}
