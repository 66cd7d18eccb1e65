import { type AddressInfo } from "node:net"
import { type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

/** One mail the catcher received, parsed. */
export interface CaughtMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  /** The HTML part, or "" when the mail had none. */
  readonly html: string
  readonly language: string | undefined
  readonly parsed: ParsedMail
}

export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>`: what SMTP_URL or SANDBOX_SMTP_URL is set to. */
  readonly url: string
  /** Every mail accepted so far, in order. */
  readonly mails: ReadonlyArray<CaughtMail>
  /** Mails the server refused so far (the `failFirst` ones). */
  readonly refused: () => number
  /** Waits until at least `count` mails arrived (default 5 s), answering them all. */
  readonly waitFor: (count: number, timeoutMillis?: number) => Promise<ReadonlyArray<CaughtMail>>
  /** Refuses the next `count` mails with a temporary error (451), as a server having trouble. */
  readonly failNext: (count: number) => void
  readonly close: () => Promise<void>
}

const addresses = (value: ParsedMail["to"]): ReadonlyArray<string> =>
  (value === undefined ? [] : Array.isArray(value) ? value : [value]).flatMap((group) => group.value.map((entry) => entry.address ?? ""))

/**
 * A real SMTP server in this process (npm smtp-server, no TLS, any or no login), collecting what it
 * receives parsed by mailparser: for tests that must see the mail as a mail client would.
 */
export const startSmtpCatcher = async (options: { readonly failFirst?: number } = {}): Promise<SmtpCatcher> => {
  const mails: Array<CaughtMail> = []
  let toRefuse = options.failFirst ?? 0
  let refused = 0
  const waiters = new Set<() => void>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData: (stream, _session, callback) => {
      if (toRefuse > 0) {
        toRefuse--
        refused++
        stream.resume()
        stream.on("end", () => callback(Object.assign(new Error("Try again later"), { responseCode: 451 })))
        return
      }
      simpleParser(stream).then((parsed) => {
        mails.push({
          from: parsed.from?.value[0]?.address ?? "",
          to: addresses(parsed.to),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: typeof parsed.html === "string" ? parsed.html : "",
          language: /<html[^>]*\slang="([^"]+)"/.exec(typeof parsed.html === "string" ? parsed.html : "")?.[1],
          parsed
        })
        for (const wake of waiters) wake()
        callback()
      }, (error: Error) => callback(error))
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refused: () => refused,
    failNext: (count) => {
      toRefuse = count
    },
    waitFor: (count, timeoutMillis = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length < count) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve([...mails])
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`expected ${count} mails, received ${mails.length}`))
        }, timeoutMillis)
        waiters.add(check)
        check()
      }),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
