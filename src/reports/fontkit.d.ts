// The part of fontkit (pdfkit's own font engine) that the report fonts use.
declare module 'fontkit' {
  export interface Font {
    postscriptName: string;
    layout(text: string): unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
