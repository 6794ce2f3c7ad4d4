// The KYC service behind the HTTP routes: decodes both images, analyses them with the (lazily started) engine,
// screens the name, decides, and stores the result with its signals before answering; finds and lists the
// stored checks of one tenant only.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ConfigError } from '../config.ts';
import type { Meters } from '../accounts/usage.ts';
import type { EmbeddedScreening } from '../aml/embedded.ts';
import type { StoredCheck } from '../modules.ts';
import type { Database } from '../storage/schema.ts';
import { newId } from '../ids.ts';
import { findStoredCheck } from '../storage/checks.ts';
import {
  type AmlOutcome,
  type DecodedImage,
  type ImageField,
  type KycEngine,
  type KycSignals,
  ImageIntakeError,
  SAME_IMAGE_MAX_DISTANCE,
  decideKyc,
  decodeBase64Image,
  decodeImage,
  hammingDistance,
} from './index.ts';
import type { KycCheckList, KycCheckResult, KycVerifyRequest } from './schemas.ts';
import type { FieldError } from '../http/errors.ts';

/** The request cannot be checked as sent (an image that is not one, a bad cursor): the route's 400. */
export class KycInputError extends Error {
  readonly errors: FieldError[];
  constructor(errors: FieldError[]) {
    super(errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    this.name = 'KycInputError';
    this.errors = errors;
  }
}

/** The engine could not be started or failed on a check (not the caller's fault): the route's 503. */
export class KycEngineUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The KYC engine is not available', { cause });
    this.name = 'KycEngineUnavailableError';
  }
}

export interface KycCaller {
  accountId: string;
  /** Test keys give sandbox checks (never billed); live keys live checks, billed to kycChecks. */
  keyEnvironment: 'test' | 'live';
}

export interface KycServiceOptions {
  db: Kysely<Database>;
  meters: Meters;
  /** Public base URL, for reportUrl. */
  baseUrl: string;
  /** Starts the engine (a worker pool); called on the first verify or warm-up, once per service. */
  startEngine(): Promise<KycEngine>;
  screenPerson(person: { firstName: string; lastName: string }): Promise<EmbeddedScreening>;
  /** AES-256 key: raw images are kept, encrypted, only when it is given (KYX_KEEP_IMAGES). */
  imageKey?: Buffer;
}

export interface KycService {
  /** Throws KycInputError for images that are not decodable images, KycEngineUnavailableError if the engine fails. */
  verify(caller: KycCaller, request: KycVerifyRequest): Promise<KycCheckResult>;
  find(accountId: string, checkId: string): Promise<StoredCheck | undefined>;
  /** Newest first; throws KycInputError for a cursor this service did not issue. */
  list(accountId: string, page: { limit: number; cursor?: string }): Promise<KycCheckList>;
  /** Starts the engine now rather than on the first verify. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** What the `record` column holds: the public result and the engine's measurements it was decided from. */
interface StoredRecord {
  result: KycCheckResult;
  signals: KycSignals;
}

/**
 * How many of the tenant's latest live checks a new document is compared with. The scan is linear (a 64-bit
 * Hamming distance per row), so it is bounded; an index over hash bands would lift the bound.
 */
const REUSE_SCAN_LIMIT = 5000;

// ---------------------------------------------------------------------------------------------------------------
// Images kept at rest (KYX_KEEP_IMAGES)

/** KYX_IMAGE_KEY: 32 bytes as base64 or hex. */
export function parseImageKey(raw: string | undefined): Buffer {
  const text = (raw ?? '').trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : null;
  if (!key || key.length !== 32) {
    throw new ConfigError('KYX_KEEP_IMAGES is set: KYX_IMAGE_KEY must be a 32-byte key, base64 (44 characters) or hex (64 characters)');
  }
  return key;
}

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

// ---------------------------------------------------------------------------------------------------------------
// Cursors: opaque to clients, the (created_at, id) of the last row of a page

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // reported below
  }
  throw new KycInputError([{ path: 'querystring/cursor', message: 'is not a cursor this API issued' }]);
}

// ---------------------------------------------------------------------------------------------------------------

interface ReceivedImage {
  bytes: Buffer;
  decoded: DecodedImage;
}

async function receiveImage(field: ImageField, value: string): Promise<ReceivedImage> {
  const bytes = decodeBase64Image(field, value);
  return { bytes, decoded: await decodeImage(field, bytes) };
}

/** Both images, fully decoded; every field that is not a usable image file is named, not only the first. */
async function receiveImages(request: KycVerifyRequest): Promise<[ReceivedImage, ReceivedImage]> {
  const [document, selfie] = await Promise.allSettled([
    receiveImage('documentImage', request.documentImage),
    receiveImage('selfieImage', request.selfieImage),
  ]);
  const errors: FieldError[] = [];
  for (const outcome of [document, selfie]) {
    if (outcome.status === 'fulfilled') continue;
    if (!(outcome.reason instanceof ImageIntakeError)) throw outcome.reason;
    errors.push({ path: `body/${outcome.reason.field}`, message: outcome.reason.message });
  }
  if (document.status === 'rejected' || selfie.status === 'rejected') throw new KycInputError(errors);
  return [document.value, selfie.value];
}

/** One engine per service, started on first use; a start that failed is retried by the next call. */
function lazyEngine(start: () => Promise<KycEngine>) {
  let pending: Promise<KycEngine> | undefined;
  let closed = false;
  return {
    get(): Promise<KycEngine> {
      if (closed) return Promise.reject(new Error('the KYC service is closed'));
      if (!pending) {
        const starting = start();
        pending = starting;
        starting.catch(() => {
          if (pending === starting) pending = undefined;
        });
      }
      return pending;
    },
    async close(): Promise<void> {
      closed = true;
      const engine = await pending?.catch(() => undefined);
      pending = undefined;
      await engine?.close();
    },
  };
}

function amlOutcome(screened: boolean, screening: EmbeddedScreening | null): { decision: AmlOutcome; result: KycCheckResult['aml'] } {
  if (!screened || !screening) return { decision: { screened: false, status: 'clear', matches: [] }, result: { screened: false, matches: [] } };
  return { decision: { screened: true, status: screening.status, matches: screening.matches }, result: { screened: true, ...screening } };
}

function documentSummary(signals: KycSignals): KycCheckResult['document'] {
  const reading = signals.documentReading;
  const mrz = reading.mrz;
  return {
    mrz: mrz && {
      format: mrz.format,
      valid: mrz.valid,
      invalidFields: mrz.invalidFields,
      documentCode: mrz.documentCode,
      issuingState: mrz.issuingState,
      documentNumber: mrz.documentNumber,
      nationality: mrz.nationality,
      lastName: mrz.lastName,
      firstName: mrz.firstName,
      birthDate: mrz.birthDate,
      expiryDate: mrz.expiryDate,
      sex: mrz.sex,
      personalNumber: mrz.personalNumber,
    },
    nameMatchScore: reading.nameMatch?.score ?? reading.text?.nameScore ?? null,
    address: reading.text?.address ?? null,
    issueDate: reading.text?.issueDate ?? null,
    perceptualHash: reading.perceptualHash,
  };
}

export function createKycService(options: KycServiceOptions): KycService {
  const { db, meters, imageKey } = options;
  const engine = lazyEngine(options.startEngine);

  async function analyse(input: Parameters<KycEngine['analyse']>[0]): Promise<KycSignals> {
    try {
      return await (await engine.get()).analyse(input);
    } catch (error) {
      throw new KycEngineUnavailableError(error);
    }
  }

  /**
   * Earlier live checks of the tenant whose document looks the same. Sandbox checks are not compared: integrations
   * resubmit the same specimen on purpose, and the shipped specimen request must pass every time with a test key.
   */
  async function reusedDocumentCheckIds(accountId: string, environment: 'sandbox' | 'live', hash: string): Promise<string[]> {
    if (environment !== 'live') return [];
    const rows = await db
      .selectFrom('kyc_checks')
      .select(['id', 'document_hash'])
      .where('account_id', '=', accountId)
      .where('environment', '=', 'live')
      .orderBy('created_at', 'desc')
      .limit(REUSE_SCAN_LIMIT)
      .execute();
    return rows.filter((row) => hammingDistance(row.document_hash, hash) <= SAME_IMAGE_MAX_DISTANCE).map((row) => row.id);
  }

  return {
    async verify(caller, request) {
      const environment = caller.keyEnvironment === 'live' ? 'live' : 'sandbox';
      const createdAt = new Date().toISOString();
      const [document, selfie] = await receiveImages(request);
      const metadata = request.metadata;
      const screened = request.amlScreening !== false;
      const [signals, screening] = await Promise.all([
        analyse({ documentType: request.documentType, document: document.decoded, selfie: selfie.decoded, metadata, now: createdAt }),
        screened ? options.screenPerson({ firstName: metadata.firstName, lastName: metadata.lastName }) : null,
      ]);
      const aml = amlOutcome(screened, screening);
      const reused = await reusedDocumentCheckIds(caller.accountId, environment, signals.documentReading.perceptualHash);
      const decision = decideKyc({ signals, aml: aml.decision, environment, reference: metadata.reference, reusedDocumentCheckIds: reused });

      const checkId = newId('chk');
      const completed = new Date();
      const result: KycCheckResult = {
        checkId,
        status: decision.status,
        score: decision.score,
        riskLevel: decision.riskLevel,
        reportUrl: `${options.baseUrl}/reports/RPT-001/${checkId}.pdf`,
        createdAt,
        completedAt: completed.toISOString(),
        environment,
        documentType: request.documentType,
        metadata,
        checks: decision.checks,
        aml: aml.result,
        document: documentSummary(signals),
        face: { selfieFaces: signals.face.selfieFaces, documentFaces: signals.face.documentFaces, similarity: signals.face.similarity },
        imageHashes: { document: signals.document.sha256, selfie: signals.selfie.sha256 },
        sandboxScenario: decision.scenario,
        reusedDocumentCheckIds: reused,
      };
      const stored: StoredRecord = { result, signals };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('kyc_checks')
          .values({
            id: checkId,
            account_id: caller.accountId,
            environment,
            status: result.status,
            document_hash: signals.documentReading.perceptualHash,
            created_at: createdAt,
            record: JSON.stringify(stored),
          })
          .execute();
        if (imageKey) {
          await trx
            .insertInto('kyc_images')
            .values(
              ([['documentImage', document], ['selfieImage', selfie]] as const).map(([field, image]) => ({
                check_id: checkId,
                account_id: caller.accountId,
                field,
                ...sealImage(imageKey, checkId, field, image.bytes),
                created_at: createdAt,
              })),
            )
            .execute();
        }
        if (environment === 'live') await meters.record(trx, caller.accountId, 'kycChecks', completed);
      });
      return result;
    },

    find: (accountId, checkId) => findStoredCheck(db, 'kyc', accountId, checkId, (stored) => (stored as StoredRecord).result),

    async list(accountId, { limit, cursor }) {
      const after = cursor === undefined ? null : decodeCursor(cursor);
      let query = db.selectFrom('kyc_checks').select(['id', 'created_at', 'record']).where('account_id', '=', accountId);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        data: page.map((row) => (JSON.parse(row.record) as StoredRecord).result),
        nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
      };
    },

    async warmUp() {
      await engine.get();
    },

    close: () => engine.close(),
  };
}
