import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { describe, expect, it } from "vitest"
import { CredentialRepository } from "../merchants/credentials.js"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import { MerchantId } from "../shared/ids.js"
import { Instant } from "../shared/instant.js"
import * as RealClock from "../shared/real-clock.js"
import * as Ids from "../signing/random-ids.js"
import { SecretBox } from "../signing/secret-box.js"
import type { AttemptReport, WebhookDelivery } from "./delivery.js"
import * as Dispatcher from "./dispatcher.js"
import { WebhookOutbox } from "./webhook-outbox.js"
import { WebhookSender } from "./webhook-sender.js"

const delivery = (id: string): WebhookDelivery => ({
  id,
  merchantId: MerchantId(1),
  environment: "sandbox",
  event: "payment.completed",
  url: "https://shop.example.test/ipn",
  body: "{\"a\":1}",
  signingSecret: "webhook_secret",
  objectId: null,
  sequence: null,
  status: "pending",
  attempts: 0,
  nextAttemptAt: Instant(0n),
  lastError: null,
  lastStatusCode: null,
  createdAt: Instant(0n),
  updatedAt: Instant(0n)
})

/** The store's side, by hand: what is due, and what each recording was handed. */
const fakeStore = (failFirstRecording: () => Effect.Effect<never>) => {
  const state = { due: [] as Array<WebhookDelivery>, recordings: 0, recorded: [] as Array<string> }
  const outbox = Layer.succeed(WebhookOutbox, {
    claimDue: ({ limit }: { readonly limit: number }) => Effect.sync(() => state.due.splice(0, limit)),
    recordAttempts: (reports: ReadonlyArray<AttemptReport>) =>
      Effect.suspend(() => {
        state.recordings++
        if (state.recordings === 1) return failFirstRecording()
        state.recorded.push(...reports.map((report) => report.deliveryId))
        return Effect.succeed(reports.map(() => true))
      }),
    noteTargetOutcomes: (outcomes: ReadonlyArray<unknown>) => Effect.succeed(outcomes.map(() => false))
  } as unknown as WebhookOutbox["Type"])
  return { state, outbox }
}

const signing = Layer.mergeAll(
  Layer.succeed(CredentialRepository, {
    liveSetsOf: () => Effect.succeed([{ merchantId: MerchantId(1), environment: "sandbox", sealedWebhookSecret: "w", sealedClientSecret: "c" }])
  } as unknown as CredentialRepository["Type"]),
  Layer.succeed(MerchantRepository, { findByIds: () => Effect.succeed([]) } as unknown as MerchantRepository["Type"]),
  Layer.succeed(SecretBox, { open: (sealed: string) => Either.right(`secret-${sealed}`) } as unknown as SecretBox["Type"])
)

const until = async (done: () => boolean, what: string) => {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 5_000) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * Finished sends are recorded in batches by one recorder: whatever ends a batch's recording, its
 * sends are answered and the recorder goes on, or every send after it would wait forever.
 */
describe("webhook dispatcher's recorder", () => {
  it("records the next batch after a defect ended one", async () => {
    const { outbox, state } = fakeStore(() => Effect.die(new Error("a bug in the store adapter")))
    const sent: Array<string> = []
    const sender = Layer.succeed(WebhookSender, {
      send: (webhook) => Effect.sync(() => {
        sent.push(webhook.headers["webhook-id"] ?? "")
        return { _tag: "Responded" as const, statusCode: 200, durationMs: 1 }
      })
    })
    const dispatcher = Dispatcher.layer({ pollInterval: "10 millis" }).pipe(
      Layer.provide(Layer.mergeAll(outbox, sender, signing, Ids.layerTest(), RealClock.layer))
    )
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      yield* Layer.build(dispatcher)
      state.due.push(delivery("evt_first"))
      yield* Effect.promise(() => until(() => state.recordings === 1, "the first recording"))
      state.due.push(delivery("evt_second"), delivery("evt_third"))
      yield* Effect.promise(() => until(() => state.recorded.length === 2, "the next sends recorded"))
    })).pipe(Logger.withMinimumLogLevel(LogLevel.None)))
    expect(sent).toEqual(["evt_first", "evt_second", "evt_third"])
    expect([...state.recorded].sort()).toEqual(["evt_second", "evt_third"])
  })
})
