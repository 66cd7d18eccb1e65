import { connect } from "node:net"

/**
 * HTTP/1.1 spoken by hand over a TCP socket, for what node:http's client hides: whether the answer
 * arrives before a reset, whether the server closes the connection, what happens when a client
 * stalls. Bodies are written in pieces, as a slow uploader would, and a write error does not end the
 * exchange: the answer may already be on its way.
 */

export interface RawExchange {
  /** 0 when no status line arrived. */
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** The socket error seen (ECONNRESET, EPIPE), if any. */
  readonly error: string | undefined
  /** The server ended the connection (FIN or reset) before `timeoutMs`. */
  readonly closed: boolean
  readonly elapsedMs: number
}

export interface RawUpload {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  /** Sent in 64 KiB pieces; `stallAfter` stops sending after that many bytes and waits. */
  readonly body?: Uint8Array
  readonly chunked?: boolean
  readonly stallAfter?: number
  /** Gives up waiting for the server after this long (default 10 s). */
  readonly timeoutMs?: number
}

const PIECE = 64 * 1024

const parse = (raw: Buffer): Pick<RawExchange, "status" | "headers" | "body"> => {
  const text = raw.toString("latin1")
  const end = text.indexOf("\r\n\r\n")
  if (end === -1) return { status: 0, headers: {}, body: "" }
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n")
  const headers = Object.fromEntries(lines.map((line) => {
    const colon = line.indexOf(":")
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]
  }))
  let body = raw.subarray(Buffer.byteLength(text.slice(0, end + 4), "latin1"))
  if (headers["transfer-encoding"] === "chunked") body = dechunk(body)
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, body: body.toString("utf8") }
}

const dechunk = (data: Buffer): Buffer => {
  const parts: Array<Buffer> = []
  let offset = 0
  while (offset < data.length) {
    const lineEnd = data.indexOf("\r\n", offset)
    if (lineEnd === -1) break
    const size = parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16)
    if (!(size > 0)) break
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    offset = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

export const rawExchange = (baseUrl: string, upload: RawUpload): Promise<RawExchange> =>
  new Promise((resolve) => {
    const url = new URL(baseUrl)
    const started = Date.now()
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 80) })
    const received: Array<Buffer> = []
    let error: string | undefined
    let done = false
    const finish = (closed: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ ...parse(Buffer.concat(received)), error, closed, elapsedMs: Date.now() - started })
    }
    const timer = setTimeout(() => finish(false), upload.timeoutMs ?? 10_000)
    socket.on("data", (chunk: Buffer) => received.push(chunk))
    socket.on("error", (cause: NodeJS.ErrnoException) => {
      error ??= cause.code ?? cause.message
    })
    socket.on("close", () => finish(true))
    socket.on("end", () => finish(true))
    const head = [`${upload.method} ${url.pathname.replace(/\/+$/, "")}${upload.path} HTTP/1.1`, `host: ${url.host}`, ...Object.entries(upload.headers).map(([name, value]) => `${name}: ${value}`)]
    socket.write(`${head.join("\r\n")}\r\n\r\n`)
    const body = upload.body ?? new Uint8Array(0)
    const limit = Math.min(body.length, upload.stallAfter ?? body.length)
    const sendFrom = (offset: number): void => {
      if (done || socket.destroyed) return
      if (offset >= limit) {
        if (upload.chunked === true && upload.stallAfter === undefined) socket.write("0\r\n\r\n")
        return
      }
      const piece = body.subarray(offset, Math.min(offset + PIECE, limit))
      const wrote = upload.chunked === true
        ? socket.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]))
        : socket.write(piece)
      if (wrote) setImmediate(() => sendFrom(offset + piece.length))
      else socket.once("drain", () => sendFrom(offset + piece.length))
    }
    sendFrom(0)
  })
