// Unpacks a ZIP with yauzl, an implementation independent of the one that wrote it (fflate).
import yauzl from 'yauzl';

/** Every file entry by name; a name stored twice is an error, since a Map would hide the second copy. */
export function unzipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (openError, archive) => {
      if (openError || !archive) return reject(openError ?? new Error('yauzl: no archive'));
      const entries = new Map<string, Buffer>();
      archive.on('error', reject);
      archive.on('end', () => resolve(entries));
      archive.on('entry', (entry: yauzl.Entry) => {
        if (entries.has(entry.fileName)) return reject(new Error(`duplicate ZIP entry ${entry.fileName}`));
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('yauzl: no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}
