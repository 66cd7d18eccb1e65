import type * as Stream from "effect/Stream"
import { TextFile } from "./text-file.js"

/**
 * An answer sent as it is made (an event stream): a TextFile as far as the declarations go (its
 * success is `FileAnswer` with its type among `files`), its bytes a stream that runs after the
 * handler returned, with every service it needs already given. Never kept for replay: only a GET
 * answers one.
 */
export class StreamedAnswer extends TextFile {
  constructor(
    contentType: string,
    readonly stream: Stream.Stream<Uint8Array>
  ) {
    super(contentType, "")
  }
}
