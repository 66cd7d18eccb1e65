import { Readable } from "node:stream"
import type { MerchantClient } from "../../../merchant-client.js"
import type { CliContext, CliSettings } from "../../cli-command.js"

/** What a command wrote: human lines, JSON values and problems, each in order. */
export interface Written {
  readonly lines: Array<string>
  readonly data: Array<unknown>
  readonly problems: Array<string>
}

/**
 * A context for running one command in a test: output captured (no colour), standard input from a
 * string, the client a stub or a real one, Ctrl-C by aborting `controller`.
 */
export const fakeContext = (options: {
  readonly json?: boolean
  readonly tty?: boolean
  readonly stdin?: string
  readonly client?: Partial<MerchantClient>
  readonly settings?: Partial<CliSettings>
} = {}) => {
  const written: Written = { lines: [], data: [], problems: [] }
  const controller = new AbortController()
  const json = options.json ?? false
  const context: CliContext = {
    out: {
      json,
      tty: options.tty ?? false,
      line: (text) => {
        if (!json) written.lines.push(text)
      },
      data: (value) => {
        if (json) written.data.push(JSON.parse(JSON.stringify(value)))
      },
      problem: (text) => written.problems.push(text),
      colour: (_name, text) => text
    },
    settings: () => ({
      baseUrl: "http://127.0.0.1:1",
      environment: "sandbox",
      merchantKey: "test_mk",
      apiKey: "test_ak",
      clientSecret: "client-secret",
      webhookSecret: undefined,
      ...options.settings
    }),
    client: () => {
      if (options.client === undefined) throw new Error("this test gives the command no client")
      return options.client as MerchantClient
    },
    signal: controller.signal,
    stdin: Readable.from([Buffer.from(options.stdin ?? "", "utf8")])
  }
  return { context, written, controller, text: () => written.lines.join("\n") }
}
