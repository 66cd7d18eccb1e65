import { Readable } from "node:stream"
import { describe, expect, it } from "vitest"
import { MerchantApiError, MerchantTransportError } from "../../client-errors.js"
import type { MerchantClient } from "../../merchant-client.js"
import { TRIGGERABLE_EVENTS } from "../../../core/triggers/trigger-catalog.js"
import { type CliContext, ExitCode } from "../cli-command.js"
import { trigger } from "./trigger.js"

const ANSWER = {
  data: {
    event: "payment.completed",
    objects: [{ type: "payment", id: "SANDBOX_TRX_1" }],
    events: [{ id: "evt-1", type: "payment.completed" }]
  }
}

/** A context whose client's `request` is `request`; what the command wrote is kept in order. */
const contextWith = (request: (id: string, input: unknown) => Promise<unknown>, json = false) => {
  const written = { lines: [] as Array<string>, data: [] as Array<unknown>, problems: [] as Array<string> }
  const calls: Array<{ id: string; input: unknown }> = []
  const context: CliContext = {
    out: {
      json,
      tty: false,
      line: (text) => void (json ? undefined : written.lines.push(text)),
      data: (value) => void (json ? written.data.push(JSON.parse(JSON.stringify(value))) : undefined),
      problem: (text) => void written.problems.push(text),
      colour: (_name, text) => text
    },
    settings: () => ({ baseUrl: "http://127.0.0.1:1", environment: "sandbox", merchantKey: "test_mk", apiKey: "test_ak", clientSecret: "s", webhookSecret: undefined }),
    client: () => ({ request: (id: string, input: unknown) => (calls.push({ id, input }), request(id, input)) }) as unknown as MerchantClient,
    signal: new AbortController().signal,
    stdin: Readable.from([])
  }
  return { context, written, calls }
}

const refusal = (status: number, message: string, errors: Record<string, ReadonlyArray<string>>) =>
  new MerchantApiError({
    status, method: "POST", path: "/api/v1/triggers", retryAfterMs: undefined, attempts: 1,
    body: { success: false, message, error_code: "VALIDATION_FAILED", errors, timestamp: "2030-01-01T00:00:00Z" }
  })

describe("merchant-payments trigger", () => {
  it("asks the host to trigger the event and prints what was made and queued", async () => {
    const { context, written, calls } = contextWith(async () => ANSWER)
    expect(await trigger.run(context, ["payment.completed"])).toBe(ExitCode.ok)
    expect(calls).toEqual([{ id: "triggerEvent", input: { body: { event: "payment.completed" } } }])
    expect(written.lines[0]).toBe("triggered payment.completed")
    expect(written.lines.join("\n")).toContain("SANDBOX_TRX_1")
    expect(written.lines.join("\n")).toContain("evt-1  payment.completed")
    expect(written.problems).toEqual([])
  })

  it("passes --ipn-url on, and under --json prints the answer as one JSON value and no human lines", async () => {
    const { context, written, calls } = contextWith(async () => ANSWER, true)
    expect(await trigger.run(context, ["payment.completed", "--ipn-url", "https://shop.example/ipn", "--json"])).toBe(ExitCode.ok)
    expect(calls[0]!.input).toEqual({ body: { event: "payment.completed", ipn_url: "https://shop.example/ipn" } })
    expect(written.data).toEqual([ANSWER.data])
    expect(written.lines).toEqual([])
  })

  it("says so when nothing was queued (no endpoint, no ipn_url)", async () => {
    const { context, written } = contextWith(async () => ({ data: { ...ANSWER.data, events: [] } }))
    expect(await trigger.run(context, ["payment.completed"])).toBe(ExitCode.ok)
    expect(written.lines.at(-1)).toContain("no event was queued")
  })

  it("prints the host's refusal with its reasons and exits 4; no answer at all is 4 too", async () => {
    const refused = contextWith(async () => {
      throw refusal(422, "Triggers are sandbox only.", { "X-Environment": ["Send X-Environment: sandbox."] })
    })
    expect(await trigger.run(refused.context, ["payment.completed"])).toBe(ExitCode.host)
    expect(refused.written.problems[0]).toContain("422 VALIDATION_FAILED: Triggers are sandbox only.")
    expect(refused.written.problems[0]).toContain("Send X-Environment: sandbox.")
    const silent = contextWith(async () => {
      throw new MerchantTransportError("timeout", "POST", "/api/v1/triggers", 4, "key", { cause: new Error("timed out") })
    })
    expect(await trigger.run(silent.context, ["payment.completed"])).toBe(ExitCode.host)
    expect(silent.written.problems).toHaveLength(1)
  })

  it("leaves any other failure (a missing setting) to the dispatcher", async () => {
    const { context } = contextWith(async () => {
      throw new Error("MERCHANT_KEY is not set")
    })
    await expect(trigger.run(context, ["payment.completed"])).rejects.toThrow("MERCHANT_KEY is not set")
  })

  it("lists the events without a host: those it can trigger, and those it cannot with why", async () => {
    const { context, written, calls } = contextWith(async () => ANSWER)
    expect(await trigger.run(context, ["--list"])).toBe(ExitCode.ok)
    expect(calls).toEqual([])
    for (const event of TRIGGERABLE_EVENTS) expect(written.lines).toContain(`  ${event}`)
    expect(written.lines.some((line) => line.startsWith("  balance.available: "))).toBe(true)
    const json = contextWith(async () => ANSWER, true)
    expect(await trigger.run(json.context, ["--list"])).toBe(ExitCode.ok)
    expect(json.written.data[0]).toMatchObject({ triggerable: [...TRIGGERABLE_EVENTS], not_triggerable: { "balance.available": expect.any(String) } })
  })

  it("refuses bad usage with the usage line and exit 2, calling nothing", async () => {
    for (const args of [[], ["a", "b"], ["--nope", "payment.completed"], ["payment.completed", "--ipn-url"], ["--list", "payment.completed"]]) {
      const { context, written, calls } = contextWith(async () => ANSWER)
      expect(await trigger.run(context, args), args.join(" ")).toBe(ExitCode.usage)
      expect(written.problems[0]).toContain("usage: merchant-payments trigger EVENT")
      expect(calls).toEqual([])
    }
  })
})
