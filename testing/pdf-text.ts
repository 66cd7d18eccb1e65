import { PDFParse } from "pdf-parse"

/** The text a PDF reader extracts from `bytes`, all pages, for tests to read documents back. */
export const pdfText = async (bytes: Uint8Array): Promise<string> => {
  const parser = new PDFParse({ data: new Uint8Array(bytes) })
  try {
    return (await parser.getText()).text
  } finally {
    await parser.destroy()
  }
}
