// RPT-002: the KYB check report, from the stored KYB check result.
import type { ReportContent } from '../reports/content.ts';
import { asRecord, fieldRows, genericBlocks, otherFieldsSection, recordList, tableOf, type JsonRecord } from '../reports/record.ts';
import { checksTable } from '../reports/blocks.ts';

const DECISION_FIELDS = [
  ['kybId', 'Check id'],
  ['status', 'Status'],
  ['riskLevel', 'Risk level'],
  ['score', 'Score'],
  ['environment', 'Environment'],
  ['createdAt', 'Created at'],
  ['completedAt', 'Completed at'],
  ['reportUrl', 'Report URL'],
] as const;

const REQUEST_FIELDS = [
  ['companyName', 'Company name'],
  ['country', 'Country'],
  ['registrationNumber', 'Registration number'],
  ['vatNumber', 'VAT number'],
  ['lei', 'LEI'],
  ['regulatorId', 'Regulator id'],
] as const;

function partiesTable(parties: unknown, detail: readonly [string, string], emptyText: string) {
  return tableOf(
    recordList(parties).map((party) => ({ ...party, screeningResult: party.screening ?? party.aml })),
    [
      ['name', 'Name', 2],
      [detail[0], detail[1], 1],
      ['dateOfBirth', 'Date of birth', 1],
      ['screeningResult', 'Screening', 3],
    ],
    emptyText,
  );
}

export function kybReport(record: JsonRecord): ReportContent {
  // The request may be stored at the top level or under `request`; officers and owners likewise.
  const request = { ...record, ...asRecord(record.request) };
  const shown = [
    ...DECISION_FIELDS.map(([field]) => field),
    ...REQUEST_FIELDS.map(([field]) => field),
    'request',
    'company',
    'checks',
    'officers',
    'owners',
  ];
  return {
    sections: [
      { title: 'Decision', blocks: [fieldRows(record, DECISION_FIELDS)] },
      { title: 'Company as requested', blocks: [fieldRows(request, REQUEST_FIELDS)] },
      { title: 'Company as assembled from sources', blocks: genericBlocks(asRecord(record.company)) },
      { title: 'Sources and checks', blocks: [checksTable(record.checks)] },
      { title: 'Officers', blocks: [partiesTable(request.officers, ['role', 'Role'], 'No officers were recorded.')] },
      {
        title: 'Owners',
        blocks: [partiesTable(request.owners, ['ownershipPercent', 'Ownership %'], 'No owners were recorded.')],
      },
      ...otherFieldsSection(record, shown),
    ],
  };
}
