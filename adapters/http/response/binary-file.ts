import { TextFile } from "./text-file.js"

/**
 * A file of bytes an endpoint answers (a PDF): a TextFile as far as the declarations go (its
 * `files` name the type; FileAnswer accepts it), sent as its bytes. Its `text` is empty and unused.
 * Only GETs answer one, so no idempotent replay ever has to keep its bytes.
 */
export class BinaryFile extends TextFile {
  constructor(contentType: string, readonly bytes: Uint8Array, filename?: string) {
    super(contentType, "", filename)
  }
}
