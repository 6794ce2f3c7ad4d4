// EU VIES VAT REST API: POST /check-vat-number {countryCode, vatNumber} → {valid, name, address, requestDate, …}.
// Failures come as {actionSucceed: false, errorWrappers: [{error, message}]} — on HTTP 200 as well as on 4xx/5xx —
// and the GET /ms/{cc}/vat/{n} form reports them in `userError`. Member states that do not disclose the trader
// answer name/address "---".
import type { Clock, KybSource, SourceAnswer, VatQuery, VatRecord } from '../types.ts';
import { asArray, asRecord, asString, found, fromFailure, notFound, unavailable } from './answers.ts';
import { createSourceHttpClient, transientHttpStatus, type HttpResponse, type SourceEndpointConfig } from './http.ts';

/** VIES error codes that say "ask again later". */
const VIES_TRANSIENT = new Set([
  'MS_UNAVAILABLE',
  'TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'MS_MAX_CONCURRENT_REQ',
  'GLOBAL_MAX_CONCURRENT_REQ',
]);

export function viesErrorCode(body: unknown): string | null {
  const envelope = asRecord(body);
  const wrapped = asString(asRecord(asArray(envelope.errorWrappers)[0]).error);
  if (wrapped) return wrapped;
  const userError = asString(envelope.userError);
  return userError && userError !== 'VALID' && userError !== 'INVALID' ? userError : null;
}

const viesTransient = (response: HttpResponse): string | null => {
  const code = viesErrorCode(response.body);
  if (code) return VIES_TRANSIENT.has(code) ? code : null;
  return transientHttpStatus(response);
};

const disclosed = (value: unknown): string | undefined => {
  const text = asString(value);
  return text && text !== '---' ? text : undefined;
};

export function mapVatAnswer(body: unknown, query: VatQuery): VatRecord | null {
  const answer = asRecord(body);
  const valid = typeof answer.valid === 'boolean' ? answer.valid : answer.isValid;
  if (typeof valid !== 'boolean') return null;
  return {
    countryCode: asString(answer.countryCode) ?? query.countryCode,
    vatNumber: asString(answer.vatNumber) ?? query.vatNumber,
    valid,
    name: disclosed(answer.name),
    address: disclosed(answer.address),
    requestDate: asString(answer.requestDate),
  };
}

export function createViesSource(config: SourceEndpointConfig, clock: Clock): KybSource<VatQuery, VatRecord> {
  const http = createSourceHttpClient(config, clock);
  return {
    name: 'vies',
    async lookup(query, context): Promise<SourceAnswer<VatRecord>> {
      const outcome = await http.send(
        { method: 'POST', path: '/check-vat-number', json: { countryCode: query.countryCode, vatNumber: query.vatNumber } },
        context,
        viesTransient,
      );
      if (outcome.kind === 'failure') return fromFailure(clock, outcome);
      const { status, body } = outcome.response;
      const code = viesErrorCode(body);
      if (code === 'INVALID_INPUT') return notFound(clock, 'vat_invalid_input', { errorCode: code });
      if (code) return unavailable(clock, code, { errorCode: code, httpStatus: status });
      const record = status === 200 ? mapVatAnswer(body, query) : null;
      if (!record) return unavailable(clock, 'unexpected_status', { httpStatus: status });
      return found(clock, record, {
        countryCode: record.countryCode,
        vatNumber: record.vatNumber,
        valid: record.valid,
        nameDisclosed: record.name !== undefined,
        requestDate: record.requestDate,
      });
    },
  };
}
