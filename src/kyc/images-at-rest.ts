// Images kept at rest (KYX_KEEP_IMAGES): AES-256-GCM, each bound to its check and field.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { ImageField } from './index.ts';

export interface SealedImage {
  iv: Uint8Array;
  tag: Uint8Array;
  ciphertext: Uint8Array;
}

/** The check id and field are authenticated with the image, so a row copied under another check does not open. */
const imageAad = (checkId: string, field: ImageField) => Buffer.from(`${checkId}/${field}`, 'utf8');

export function sealImage(key: Buffer, checkId: string, field: ImageField, bytes: Uint8Array): SealedImage {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(imageAad(checkId, field));
  const ciphertext = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

/** Throws when the key is wrong or the stored bytes were changed. */
export function openImage(key: Buffer, checkId: string, field: ImageField, sealed: SealedImage): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(imageAad(checkId, field));
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
}
