// RPT-003: the AML screening report, from the stored screening result.
import type { ReportContent } from '../reports/content.ts';
import { asRecord, fieldRows, otherFieldsSection, recordList, type JsonRecord } from '../reports/record.ts';
import { listsVersionBlock, matchesTable } from '../reports/blocks.ts';

const QUERY_FIELDS = [
  ['name', 'Name screened'],
  ['type', 'Type'],
  ['dateOfBirth', 'Date of birth'],
  ['country', 'Country'],
  ['threshold', 'Threshold'],
] as const;

const RESULT_FIELDS = [
  ['screeningId', 'Screening id'],
  ['status', 'Status'],
  ['environment', 'Environment'],
  ['screenedAt', 'Screened at'],
] as const;

export function amlReport(record: JsonRecord): ReportContent {
  // The query may be stored at the top level or under `query`.
  const query = { ...record, ...asRecord(record.query) };
  const matches = recordList(record.matches);
  const shown = [...QUERY_FIELDS.map(([field]) => field), ...RESULT_FIELDS.map(([field]) => field), 'query', 'matches', 'listsVersion', 'lists'];
  return {
    sections: [
      { title: 'Query', blocks: [fieldRows(query, QUERY_FIELDS)] },
      {
        title: 'Result',
        blocks: [fieldRows(record, RESULT_FIELDS), { kind: 'keyValue', rows: [['Matches', matches.length]] }],
      },
      {
        title: 'Lists and versions',
        blocks: [listsVersionBlock(record.listsVersion), ...(record.lists === undefined ? [] : [listsVersionBlock(record.lists)])],
      },
      { title: 'Matches', blocks: [matchesTable(matches)] },
      ...otherFieldsSection(record, shown),
    ],
  };
}
