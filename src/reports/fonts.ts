// DejaVu Sans from the `dejavu-fonts-ttf` npm package: one embedded font family covering Latin, Cyrillic,
// Greek, Arabic and Hebrew, so a report never depends on fonts installed on the host.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface ReportFonts {
  regular: Buffer;
  bold: Buffer;
}

let cached: ReportFonts | undefined;

export function reportFonts(): ReportFonts {
  cached ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return cached;
}
