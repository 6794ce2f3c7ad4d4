// Blocks that more than one report shows the same way.
import type { Block, Section } from './content.ts';
import { asRecord, cell, fieldRows, isRecord, recordList, tableOf, type JsonRecord } from './record.ts';

/** KYC and KYB checks: one entry per check run, `{name, result, reasons}`. */
export function checksTable(checks: unknown): Block {
  return tableOf(
    recordList(checks),
    [
      ['name', 'Check', 1.2],
      ['result', 'Result', 1],
      ['reasons', 'Reasons', 3],
    ],
    'No checks were recorded.',
  );
}

/** AML matches as the AML engine stores them (`entityId, name, matchedName, score, lists, programs, …`). */
export function matchesTable(matches: unknown): Block {
  const rows = recordList(matches).map((match) => ({ ...match, explanation: match.reasons ?? match.features }));
  return tableOf(
    rows,
    [
      ['matchedName', 'Matched name', 2],
      ['name', 'Listed name', 2],
      ['entityId', 'Entity', 1.4],
      ['score', 'Score', 0.8],
      ['lists', 'Lists', 1.4],
      ['programs', 'Programs', 1.4],
      ['explanation', 'Reasons', 2.4],
    ],
    'No matches.',
  );
}

/** The lists a screening used, whether stored as one version string, an object or a list of lists. */
export function listsVersionBlock(listsVersion: unknown): Block {
  if (Array.isArray(listsVersion) && listsVersion.every(isRecord)) {
    const keys = [...new Set(listsVersion.flatMap((list) => Object.keys(list)))];
    return tableOf(listsVersion, keys.map((key) => [key, key] as const), 'No lists were recorded.');
  }
  if (isRecord(listsVersion)) return { kind: 'keyValue', rows: Object.entries(listsVersion).map(([list, version]) => [list, cell(version)] as const) };
  return { kind: 'keyValue', rows: [['Lists version', cell(listsVersion)]] };
}

/** The AML name check embedded in a KYC or KYB record: `{screened, matches, listsVersion?}`. */
export function embeddedAmlSection(title: string, aml: unknown): Section {
  const record: JsonRecord = asRecord(aml);
  return {
    title,
    blocks: [
      fieldRows(record, [
        ['screened', 'Screened'],
        ['status', 'Status'],
        ['screeningId', 'Screening id'],
        ['listsVersion', 'Lists version'],
      ]),
      matchesTable(record.matches),
    ],
  };
}
