// UK FCA Financial Services Register API: GET /V0.1/Firm/{FRN} with headers x-auth-email and x-auth-key. Every
// answer is HTTP 200 with the envelope {Status, ResultInfo, Message, Data}; the outcome is the Status code:
// FSR-API-02-01-00 firm found, FSR-API-02-01-11 firm not found, FSR-API-02-01-21 bad request (invalid input),
// FSR-API-01-01-11 / -01-01-21 unauthorised.
import type { Clock, KybSource, RegulatorQuery, RegulatorRecord, SourceAnswer } from '../types.ts';
import { asArray, asRecord, asString, found, fromFailure, notFound, unavailable, unexpectedStatus } from './answers.ts';
import { createSourceHttpClient, type SourceEndpointConfig } from './http.ts';

export interface FcaConfig extends SourceEndpointConfig {
  email: string;
  apiKey: string;
}

export const FCA_FIRM_FOUND = 'FSR-API-02-01-00';
export const FCA_FIRM_NOT_FOUND = 'FSR-API-02-01-11';
export const FCA_BAD_REQUEST = 'FSR-API-02-01-21';

export function mapFirm(body: unknown): RegulatorRecord | null {
  const firm = asRecord(asArray(asRecord(body).Data)[0]);
  const firmReference = asString(firm.FRN);
  if (!firmReference) return null;
  return {
    firmReference,
    name: asString(firm['Organisation Name']) ?? '',
    status: asString(firm.Status) ?? 'Unknown',
    statusEffectiveDate: asString(firm['Status Effective Date']),
    businessType: asString(firm['Business Type']),
    companiesHouseNumber: asString(firm['Companies House Number']),
  };
}

export function createFcaSource(config: FcaConfig, clock: Clock): KybSource<RegulatorQuery, RegulatorRecord> {
  const http = createSourceHttpClient(config, clock);
  const headers = { 'x-auth-email': config.email, 'x-auth-key': config.apiKey };
  return {
    name: 'fca',
    async lookup({ firmReference }, context): Promise<SourceAnswer<RegulatorRecord>> {
      const outcome = await http.send({ method: 'GET', path: `/V0.1/Firm/${firmReference}`, headers }, context);
      if (outcome.kind === 'failure') return fromFailure(clock, outcome);
      const { status, body } = outcome.response;
      if (status !== 200) return unexpectedStatus(clock, status);
      const envelope = asRecord(body);
      const code = asString(envelope.Status) ?? '';
      const summary = { statusCode: code, message: asString(envelope.Message) };
      if (code === FCA_FIRM_NOT_FOUND) return notFound(clock, 'firm_not_found', summary);
      if (code === FCA_BAD_REQUEST) return notFound(clock, 'firm_reference_rejected', summary);
      if (code.startsWith('FSR-API-01-')) return unavailable(clock, 'unauthorised', summary);
      const record = code === FCA_FIRM_FOUND ? mapFirm(body) : null;
      if (!record) return unavailable(clock, 'unexpected_answer', summary);
      return found(clock, record, {
        ...summary,
        firmReference: record.firmReference,
        organisationName: record.name,
        firmStatus: record.status,
        companiesHouseNumber: record.companiesHouseNumber,
      });
    },
  };
}
