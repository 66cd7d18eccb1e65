/** One Server-Sent Events message as the event stream sends it. */
export interface SseMessage {
  readonly id: string | undefined
  readonly event: string | undefined
  readonly data: string
}

/**
 * Reads a text/event-stream body message by message (the WHATWG rules listen needs: `field: value`
 * lines, a blank line ends a message, `:` lines are comments, `data` lines joined by newlines).
 */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder()
  let buffer = ""
  let fields: { id?: string; event?: string; data: Array<string> } = { data: [] }
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1))
      if (line === "") {
        if (fields.data.length > 0) yield { id: fields.id, event: fields.event, data: fields.data.join("\n") }
        fields = { data: [] }
        continue
      }
      if (line.startsWith(":")) continue
      const colon = line.indexOf(":")
      const name = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "")
      if (name === "id") fields.id = value
      else if (name === "event") fields.event = value
      else if (name === "data") fields.data.push(value)
    }
  }
}
