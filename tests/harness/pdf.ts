/**
 * A small PDF written by hand, for the document viewers of the e2e suite:
 * one page per list of lines, each line in Helvetica, top down.
 */

/**
 * The bytes of a PDF with one page per entry of `pages`.
 *
 * @param pages each page's lines of text
 * @returns the file's bytes
 * @example
 * ```ts
 * import { tinyPdf } from "./pdf.ts";
 * const pdf = new TextDecoder().decode(tinyPdf([["One"], ["Two"]]));
 * console.log(pdf.startsWith("%PDF-1.4"), pdf.includes("/Count 2")); // true true
 * ```
 */
export function tinyPdf(pages: string[][]): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => "\\" + c);
  const FONT = 3 + 2 * pages.length; // after the catalog, the page tree and each page's pair
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, k) => `${3 + 2 * k} 0 R`).join(" ")}] ` +
    `/Count ${pages.length} >>`,
  ];
  pages.forEach((lines, k) => {
    const content = "BT /F1 24 Tf 72 700 Td 30 TL " +
      lines.map((l) => `(${esc(l)}) Tj T*`).join(" ") + " ET";
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + 2 * k} 0 R ` +
        `/Resources << /Font << /F1 ${FONT} 0 R >> >> >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  });
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, k) => {
    offsets.push(pdf.length);
    pdf += `${k + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) pdf += `${String(o).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
