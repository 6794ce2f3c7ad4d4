// The KYC service behind the HTTP routes: decodes both images, analyses them with the (lazily started) engine,
// screens the name, decides, and stores the result with its signals before answering.
import type { MonitorNames } from '../aml/monitoring.ts';
import type { EmbeddedScreening } from '../aml/embedded.ts';
import type { KeyEnvironment, RecordEnvironment } from '../core.ts';
import { DomainError, type FieldIssue } from '../errors.ts';
import { type CheckStore, checkEnvironment } from '../storage/checks.ts';
import { sealImage } from './images-at-rest.ts';
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
import type { KycRepository } from './repository.ts';
import type { KycCheckList, KycCheckResult, KycVerifyRequest } from './schemas.ts';

/** The engine could not be started or failed on a check (not the caller's fault). */
export class KycEngineUnavailableError extends DomainError {
  constructor(cause: unknown) {
    super('engine_unavailable', 'The KYC engine is not available; retry shortly', { cause });
    this.name = 'KycEngineUnavailableError';
  }
}

export interface KycCaller {
  accountId: string;
  /** Test keys give sandbox checks (never billed); live keys live checks, billed to kycChecks. */
  keyEnvironment: KeyEnvironment;
  /** The id to store the check under, for a caller that must find it again after a crash (a workflow step). */
  checkId?: string;
}

export interface KycServiceOptions {
  checks: CheckStore;
  repository: KycRepository;
  /** Starts the engine (a worker pool); called on the first verify or warm-up, once per service. */
  startEngine(): Promise<KycEngine>;
  screenPerson(person: { firstName: string; lastName: string }): Promise<EmbeddedScreening>;
  /** Enrols the screened holder in ongoing monitoring when the account enabled it. */
  monitorNames: MonitorNames;
  /** AES-256 key: raw images are kept, encrypted, only when it is given (KYX_KEEP_IMAGES). */
  imageKey?: Buffer;
}

export interface KycService {
  /**
   * Throws DomainError `invalid_input` for images that are not decodable images, KycEngineUnavailableError if
   * the engine fails.
   */
  verify(caller: KycCaller, request: KycVerifyRequest): Promise<KycCheckResult>;
  /** Newest first; throws DomainError `invalid_input` for a cursor this service did not issue. */
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
  const issues: FieldIssue[] = [];
  for (const outcome of [document, selfie]) {
    if (outcome.status === 'fulfilled') continue;
    if (!(outcome.reason instanceof ImageIntakeError)) throw outcome.reason;
    issues.push({ path: `/${outcome.reason.field}`, message: outcome.reason.message });
  }
  if (document.status === 'rejected' || selfie.status === 'rejected') throw DomainError.invalid(issues);
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
    visualZone: reading.visualZone,
    nameMatchScore: reading.nameMatch?.score ?? reading.text?.nameScore ?? null,
    address: reading.text?.address ?? null,
    issueDate: reading.text?.issueDate ?? null,
    perceptualHash: reading.perceptualHash,
  };
}

export function createKycService(options: KycServiceOptions): KycService {
  const { checks, repository, imageKey } = options;
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
  async function reusedDocumentCheckIds(accountId: string, environment: RecordEnvironment, hash: string): Promise<string[]> {
    if (environment !== 'live') return [];
    const rows = await repository.latestLiveDocumentHashes(accountId, REUSE_SCAN_LIMIT);
    return rows.filter((row) => hammingDistance(row.document_hash, hash) <= SAME_IMAGE_MAX_DISTANCE).map((row) => row.id);
  }

  return {
    async verify(caller, request) {
      const environment = checkEnvironment(caller.keyEnvironment);
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

      const checkId = caller.checkId ?? checks.newId('kyc');
      const completed = new Date();
      const result: KycCheckResult = {
        checkId,
        status: decision.status,
        score: decision.score,
        riskLevel: decision.riskLevel,
        reportUrl: checks.reportUrl('kyc', checkId),
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
      await checks.transaction(async (trx) => {
        await checks.insert(trx, 'kyc', {
          id: checkId,
          accountId: caller.accountId,
          environment,
          createdAt,
          record: stored,
          columns: { status: result.status, document_hash: signals.documentReading.perceptualHash },
          billedAt: completed,
        });
        if (screening && screening.status !== 'unavailable') {
          const query = { name: `${metadata.firstName} ${metadata.lastName}`, type: 'person' as const };
          await options.monitorNames(trx, { accountId: caller.accountId, environment, checkId, now: completed }, [{ query, matches: screening.matches }]);
        }
        if (imageKey) {
          const images = ([['documentImage', document], ['selfieImage', selfie]] as const).map(([field, image]) => ({
            field,
            sealed: sealImage(imageKey, checkId, field, image.bytes),
          }));
          await repository.insertImages(trx, checkId, caller.accountId, createdAt, images);
        }
      });
      return result;
    },

    async list(accountId, { limit, cursor }) {
      const page = await checks.list(accountId, { kinds: ['kyc'], limit, cursor });
      return { data: page.data.map((check) => check.record as KycCheckResult), nextCursor: page.nextCursor };
    },

    async warmUp() {
      await engine.get();
    },

    close: () => engine.close(),
  };
}
