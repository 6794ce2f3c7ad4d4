// `kyx bundle verify`: the specification's verification rule. Hash every file listed in manifest.json and
// compare size and SHA-256; report missing, changed and unlisted files. This proves integrity only: the
// manifest is unsigned, so a matching manifest does not show who wrote it.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { unzipSync } from 'fflate';
import { MANIFEST_FILE, sha256Hex, type ManifestEntry } from './bundle.ts';

export interface ChangedFile {
  name: string;
  expected: { bytes: number; sha256: string };
  actual: { bytes: number; sha256: string };
}

export interface BundleVerification {
  ok: boolean;
  /** Every listed file that matched. */
  matched: ManifestEntry[];
  missing: string[];
  changed: ChangedFile[];
  unlisted: string[];
  /** Names stored more than once in the ZIP: which copy a reader sees depends on the tool, so never ok. */
  duplicated: string[];
  message: string;
}

export const AUTHORSHIP_NOTE =
  'The manifest is not signed (signature: null, integrity: sha256_hashes_only). A matching manifest shows that ' +
  'the files did not change after the manifest was written; it does not show who wrote the manifest or the files.';

const SHA256_HEX = /^[0-9a-f]{64}$/;

function failure(message: string): BundleVerification {
  return { ok: false, matched: [], missing: [], changed: [], unlisted: [], duplicated: [], message };
}

function parseManifest(bytes: Uint8Array): ManifestEntry[] | string {
  let manifest: unknown;
  try {
    manifest = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return 'manifest.json is not valid JSON';
  }
  const files = (manifest as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return 'manifest.json has no files[] array';
  const entries: ManifestEntry[] = [];
  for (const [index, file] of files.entries()) {
    const { name, bytes: size, sha256 } = (file ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || !Number.isInteger(size) || typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) {
      return `manifest.json files[${index}] is not {name, bytes, sha256} with a hex SHA-256`;
    }
    entries.push({ name, bytes: size as number, sha256 });
  }
  return entries;
}

export function verifyBundle(zip: Uint8Array): BundleVerification {
  const occurrences = new Map<string, number>();
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (entry) => {
        occurrences.set(entry.name, (occurrences.get(entry.name) ?? 0) + 1);
        return true;
      },
    });
  } catch (error) {
    return failure(`not a readable ZIP archive (${(error as Error).message})`);
  }
  const duplicated = [...occurrences].filter(([, count]) => count > 1).map(([name]) => name);
  const manifestBytes = files[MANIFEST_FILE];
  if (!manifestBytes) return { ...failure('the archive has no manifest.json'), duplicated };
  const listed = parseManifest(manifestBytes);
  if (typeof listed === 'string') return { ...failure(listed), duplicated };

  const matched: ManifestEntry[] = [];
  const missing: string[] = [];
  const changed: ChangedFile[] = [];
  for (const entry of listed) {
    const bytes = files[entry.name];
    if (!bytes) {
      missing.push(entry.name);
      continue;
    }
    const actual = { bytes: bytes.byteLength, sha256: sha256Hex(bytes) };
    if (actual.bytes === entry.bytes && actual.sha256 === entry.sha256) matched.push(entry);
    else changed.push({ name: entry.name, expected: { bytes: entry.bytes, sha256: entry.sha256 }, actual });
  }
  const listedNames = new Set(listed.map((entry) => entry.name));
  // Directory entries carry no content; only files can be unlisted.
  const unlisted = Object.keys(files).filter((name) => name !== MANIFEST_FILE && !name.endsWith('/') && !listedNames.has(name));

  const ok = missing.length + changed.length + unlisted.length + duplicated.length === 0;
  const problems = [
    [changed.length, 'changed'],
    [missing.length, 'missing'],
    [unlisted.length, 'unlisted'],
    [duplicated.length, 'duplicated'],
  ] as const;
  const message = ok
    ? `all ${matched.length} files listed in manifest.json match their size and SHA-256`
    : `verification failed: ${problems.filter(([count]) => count > 0).map(([count, label]) => `${count} ${label}`).join(', ')}`;
  return { ok, matched, missing, changed, unlisted, duplicated, message };
}

/** The human-readable report printed by `kyx bundle verify FILE.zip`. */
export function formatBundleVerification(fileName: string, result: BundleVerification): string {
  const lines = [`Verifying ${fileName}`];
  for (const entry of result.matched) lines.push(`  OK         ${entry.name}  ${entry.bytes} bytes  sha256 ${entry.sha256}`);
  for (const entry of result.changed) {
    lines.push(`  CHANGED    ${entry.name}`);
    lines.push(`               manifest: ${entry.expected.bytes} bytes  sha256 ${entry.expected.sha256}`);
    lines.push(`               archive:  ${entry.actual.bytes} bytes  sha256 ${entry.actual.sha256}`);
  }
  for (const name of result.missing) lines.push(`  MISSING    ${name} (listed in manifest.json, absent from the archive)`);
  for (const name of result.unlisted) lines.push(`  UNLISTED   ${name} (in the archive, not in manifest.json)`);
  for (const name of result.duplicated) lines.push(`  DUPLICATED ${name} (stored more than once in the archive)`);
  lines.push(result.ok ? `Result: OK, ${result.message}.` : `Result: FAILED, ${result.message}.`);
  lines.push(AUTHORSHIP_NOTE);
  return `${lines.join('\n')}\n`;
}

/**
 * The whole CLI command: reads the file, prints the human report (or JSON with --json) and returns the exit
 * code: 0 only when every listed file matches and nothing is missing, changed, unlisted or duplicated;
 * 1 when verification fails; 2 when the file cannot be read.
 */
export async function runBundleVerify(
  path: string,
  options: { json: boolean; write: (text: string) => void },
): Promise<number> {
  let zip: Buffer;
  try {
    zip = await readFile(path);
  } catch (error) {
    const result = failure(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    options.write(options.json ? `${JSON.stringify({ ...result, note: AUTHORSHIP_NOTE })}\n` : `${result.message}\n`);
    return 2;
  }
  const result = verifyBundle(zip);
  options.write(
    options.json ? `${JSON.stringify({ ...result, note: AUTHORSHIP_NOTE })}\n` : formatBundleVerification(basename(path), result),
  );
  return result.ok ? 0 : 1;
}
