import { Socket } from "node:net"

/**
 * PostgreSQL has no privilege for LISTEN, UNLISTEN or NOTIFY, and CockroachDB has no LISTEN at all, so
 * the refusal sits on the wire: a socket for node-postgres (its `stream` option) that reads every
 * statement text the client sends (simple Query and extended Parse messages) and, when one is a
 * LISTEN, UNLISTEN or NOTIFY, destroys the connection instead of sending it and records the text.
 * Every connection the pool or a dedicated listen client opens goes through it, whatever API built
 * the statement.
 */
export interface ListenNotifyGuard {
  /** The `stream` factory to hand to node-postgres (PgClient's `stream` option). */
  readonly stream: () => Socket
  /** Statement texts refused so far, in the order they were sent. */
  readonly refused: ReadonlyArray<string>
}

const STARTUP_CODES_FOLLOWED_BY_ANOTHER = new Set([80877103 /* SSLRequest */, 80877104 /* GSSENCRequest */])

/** Leading comments and blanks skipped, each `;`-separated statement's first word. */
const forbidden = /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*(listen|unlisten|notify)\b/i

export const refusesListenNotify = (text: string): boolean => text.split(";").some((statement) => forbidden.test(statement))

const cString = (buffer: Buffer, from: number): { readonly text: string; readonly end: number } => {
  const end = buffer.indexOf(0, from)
  return { text: buffer.toString("utf8", from, end), end: end + 1 }
}

/** The statement text a frontend message carries, if it carries one. */
const statementText = (type: number, body: Buffer): string | undefined => {
  if (type === 0x51 /* Q */) return cString(body, 0).text
  if (type === 0x50 /* P: statement name, then the text */) return cString(body, cString(body, 0).end).text
  return undefined
}

/** Frontend messages are framed by their length; a chunk may hold several or end inside one. */
const makeMessageReader = () => {
  let pending = Buffer.alloc(0)
  let untypedLeft = 1
  /** The first forbidden statement text among the complete messages read so far. */
  return (chunk: Buffer): string | undefined => {
    pending = Buffer.concat([pending, chunk])
    for (;;) {
      const headerLength = untypedLeft > 0 ? 0 : 1
      if (pending.length < headerLength + 4) return undefined
      const length = pending.readInt32BE(headerLength)
      if (pending.length < headerLength + length) return undefined
      const message = pending.subarray(0, headerLength + length)
      pending = pending.subarray(headerLength + length)
      if (untypedLeft > 0) {
        untypedLeft -= 1
        if (length >= 8 && STARTUP_CODES_FOLLOWED_BY_ANOTHER.has(message.readInt32BE(4))) untypedLeft += 1
        continue
      }
      const text = statementText(message[0]!, message.subarray(5))
      if (text !== undefined && refusesListenNotify(text)) return text
    }
  }
}

type WriteCallback = (error?: Error | null) => void

export const makeListenNotifyGuard = (): ListenNotifyGuard => {
  const refused: Array<string> = []
  // The check sits in _write/_writev, below `write`: net.Socket#connect puts its own `write` back.
  class GuardedSocket extends Socket {
    private readonly readMessages = makeMessageReader()
    private refused(chunks: ReadonlyArray<unknown>, callback: WriteCallback): boolean {
      for (const chunk of chunks) {
        const text = Buffer.isBuffer(chunk) ? this.readMessages(chunk) : undefined
        if (text === undefined) continue
        refused.push(text)
        callback(new Error(`refused on the wire (the distributed engines have no LISTEN/NOTIFY): ${text}`))
        return true
      }
      return false
    }
    override _write(chunk: unknown, encoding: BufferEncoding, callback: WriteCallback): void {
      if (!this.refused([chunk], callback)) super._write(chunk, encoding, callback)
    }
    override _writev(chunks: Array<{ chunk: unknown; encoding: BufferEncoding }>, callback: WriteCallback): void {
      if (!this.refused(chunks.map((each) => each.chunk), callback)) super._writev!(chunks, callback)
    }
  }
  return { stream: () => new GuardedSocket(), refused }
}
