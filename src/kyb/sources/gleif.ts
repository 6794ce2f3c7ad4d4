// GLEIF LEI records API (JSON:API): GET /api/v1/lei-records/{lei} → {data: {type: "lei-records", id, attributes:
// {lei, entity: {legalName: {name}, registeredAs, jurisdiction, status, legalAddress}, registration: {status,
// nextRenewalDate}}}}. An unknown LEI is 404 {"errors": [{"status": "404", "title": "Not Found"}]}.
import type { Address, Clock, KybSource, LeiQuery, LeiRecord, SourceAnswer } from '../types.ts';
import { asArray, asRecord, asString, found, fromFailure, notFound, unexpectedStatus } from './answers.ts';
import { createSourceHttpClient, type SourceEndpointConfig } from './http.ts';

function mapGleifAddress(raw: unknown): Address | undefined {
  const address = asRecord(raw);
  const lines = asArray(address.addressLines).filter((line): line is string => typeof line === 'string' && !!line);
  if (lines.length === 0) return undefined;
  return {
    lines,
    locality: asString(address.city),
    region: asString(address.region),
    postalCode: asString(address.postalCode),
    country: asString(address.country),
  };
}

export function mapLeiRecord(body: unknown): LeiRecord | null {
  const data = asRecord(asRecord(body).data);
  const attributes = asRecord(data.attributes);
  const entity = asRecord(attributes.entity);
  const registration = asRecord(attributes.registration);
  const lei = asString(attributes.lei) ?? asString(data.id);
  if (!lei) return null;
  return {
    lei,
    legalName: asString(asRecord(entity.legalName).name) ?? '',
    registrationStatus: asString(registration.status) ?? 'UNKNOWN',
    entityStatus: asString(entity.status) ?? 'UNKNOWN',
    registeredAs: asString(entity.registeredAs),
    jurisdiction: asString(entity.jurisdiction),
    legalAddress: mapGleifAddress(entity.legalAddress),
    nextRenewalDate: asString(registration.nextRenewalDate),
  };
}

export function createGleifSource(config: SourceEndpointConfig, clock: Clock): KybSource<LeiQuery, LeiRecord> {
  const http = createSourceHttpClient(config, clock);
  return {
    name: 'gleif',
    async lookup({ lei }, context): Promise<SourceAnswer<LeiRecord>> {
      const outcome = await http.send(
        { method: 'GET', path: `/api/v1/lei-records/${lei}`, headers: { accept: 'application/vnd.api+json' } },
        context,
      );
      if (outcome.kind === 'failure') return fromFailure(clock, outcome);
      const { status, body } = outcome.response;
      if (status === 404) return notFound(clock, 'lei_not_found', { lei });
      if (status !== 200) return unexpectedStatus(clock, status);
      const record = mapLeiRecord(body);
      if (!record) return unexpectedStatus(clock, status);
      return found(clock, record, {
        lei: record.lei,
        legalName: record.legalName,
        registrationStatus: record.registrationStatus,
        entityStatus: record.entityStatus,
        registeredAs: record.registeredAs,
        jurisdiction: record.jurisdiction,
      });
    },
  };
}
