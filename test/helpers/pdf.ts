// Extracts the text of a PDF with pdfjs-dist, an implementation independent of the renderer (pdfkit).
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

interface TextItem {
  str: string;
  hasEOL: boolean;
}

/** All pages' text; items are joined as pdfjs gives them, with a newline where pdfjs sees a line end. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocument({
    // pdfjs takes ownership of (detaches) the buffer it is given: hand it a copy.
    data: new Uint8Array(pdf),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .filter((item): item is TextItem & typeof item => 'str' in item)
          .map((item) => item.str + (item.hasEOL ? '\n' : ''))
          .join(''),
      );
    }
    return pages.join('\n');
  } finally {
    await document.destroy();
  }
}

export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    return document.numPages;
  } finally {
    await document.destroy();
  }
}
