// RPT-016: the cover sheet (report.pdf) of an evidence bundle.
import type { ReportContent } from './content.ts';
import { asRecord, fieldRows, recordList, tableOf, type JsonRecord } from './record.ts';

/** What the cover sheet states; built by the bundle builder, in JSON form so it renders like any record. */
export type BundleCover = {
  bundleId: string;
  regulatorRef: string;
  createdAt: string;
  check: { id: string; kind: string; accountId: string; environment: string; status: string | null };
  /** Every file of the archive except report.pdf itself and manifest.json, with its SHA-256. */
  contents: Array<{ name: string; bytes: number; sha256: string }>;
  unavailableReports: Array<{ type: string; reason: string }>;
};

export function bundleCoverReport(record: JsonRecord): ReportContent {
  const contents = recordList(record.contents).map((file) => ({ ...file, nameAndHash: `${file.name}\n${file.sha256}` }));
  return {
    sections: [
      {
        title: 'Submission',
        blocks: [
          fieldRows(record, [
            ['regulatorRef', 'Regulator reference'],
            ['bundleId', 'Bundle id'],
            ['createdAt', 'Created at'],
          ]),
        ],
      },
      {
        title: 'Check',
        blocks: [
          fieldRows(asRecord(record.check), [
            ['id', 'Check id'],
            ['kind', 'Kind'],
            ['status', 'Status'],
            ['accountId', 'Tenant (account id)'],
            ['environment', 'Environment'],
          ]),
        ],
      },
      {
        title: 'Contents',
        blocks: [
          tableOf(contents, [['nameAndHash', 'File and SHA-256', 4], ['bytes', 'Bytes', 1]], 'The archive holds no files.'),
          {
            kind: 'paragraph',
            text: 'manifest.json lists every file of the archive except itself (this cover sheet included) with its size and SHA-256.',
          },
        ],
      },
      {
        title: 'Requested reports that could not be produced',
        blocks: [
          tableOf(
            recordList(record.unavailableReports),
            [['type', 'Report type', 1], ['reason', 'Reason', 4]],
            'None: every requested report is included.',
          ),
        ],
      },
      {
        title: 'How to verify',
        blocks: [
          {
            kind: 'paragraph',
            text:
              'Run "kyx bundle verify <bundle>.zip", or hash every file listed in manifest.json with SHA-256 and compare ' +
              'the digest and the size. A mismatch means the file changed after the manifest was written. The bundle is ' +
              'not signed (signature: null, integrity: sha256_hashes_only): a matching manifest does not show who wrote it.',
          },
        ],
      },
    ],
  };
}
