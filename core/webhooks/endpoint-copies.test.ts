import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MerchantId } from "../shared/ids.js"
import { fromSeconds } from "../shared/instant.js"
import * as Ids from "../signing/random-ids.js"
import type { NewDelivery, WebhookDelivery } from "./delivery.js"
import { enqueueEvent, enqueueEvents } from "./endpoint-copies.js"
import { EventLog, type NewLoggedEvent } from "./event-log.js"
import type { WebhookEndpoint } from "./webhook-endpoint.js"
import { WebhookEndpointRepository } from "./webhook-endpoint-repository.js"
import { WebhookOutbox } from "./webhook-outbox.js"

const AT = fromSeconds(1_900_000_000)
const merchantId = MerchantId(7)

/** Only what enqueueEvent uses, recording what it was given; anything else it called would die. */
const world = (endpoints: ReadonlyArray<WebhookEndpoint>) => {
  const queued: Array<NewDelivery> = []
  const logged: Array<NewLoggedEvent> = []
  const layer = Layer.mergeAll(
    Layer.succeed(WebhookOutbox, {
      enqueueAll: (deliveries: ReadonlyArray<NewDelivery>) =>
        Effect.sync(() => {
          queued.push(...deliveries)
          return deliveries.map((delivery) =>
            ({ ...delivery, sequence: 1, status: "pending", attempts: 0, lastError: null, lastStatusCode: null, createdAt: AT, updatedAt: AT }) satisfies WebhookDelivery)
        })
    } as unknown as WebhookOutbox["Type"]),
    Layer.succeed(EventLog, {
      appendAll: (events: ReadonlyArray<NewLoggedEvent>) => Effect.sync(() => void logged.push(...events))
    } as unknown as EventLog["Type"]),
    Layer.succeed(WebhookEndpointRepository, { list: () => Effect.succeed(endpoints) } as unknown as WebhookEndpointRepository["Type"]),
    Ids.layerTest()
  )
  return { queued, logged, layer }
}

const endpoint = (url: string): WebhookEndpoint => ({
  id: "we_1",
  merchantId,
  environment: "sandbox",
  url,
  events: ["payment.*"],
  description: null,
  status: "enabled",
  createdAt: AT,
  updatedAt: AT
})

const event = (url: string): NewDelivery => ({
  id: "ev_1",
  merchantId,
  environment: "sandbox",
  event: "payment.completed",
  url,
  body: `{"event":"payment.completed"}`,
  signingSecret: "webhook_secret",
  objectId: "TRX1",
  nextAttemptAt: AT
})

describe("enqueueEvent", () => {
  it.effect("logs the event once with its id, body and secret kind, and queues it to its ipn_url and each endpoint", () => {
    const { layer, logged, queued } = world([endpoint("https://hooks.example/all")])
    return Effect.gen(function*() {
      const delivery = yield* enqueueEvent(event("https://shop.example/ipn"))
      expect(delivery?.url).toBe("https://shop.example/ipn")
      expect(queued.map((row) => row.url)).toEqual(["https://shop.example/ipn", "https://hooks.example/all"])
      expect(logged).toHaveLength(1)
      expect(logged[0]).toMatchObject({ id: "ev_1", type: "payment.completed", objectId: "TRX1", body: `{"event":"payment.completed"}`, signingSecret: "webhook_secret" })
    }).pipe(Effect.provide(layer))
  })

  it.effect("an empty ipn_url queues no delivery of its own, but the event is logged and copied to the endpoints", () => {
    const { layer, logged, queued } = world([endpoint("https://hooks.example/all")])
    return Effect.gen(function*() {
      expect(yield* enqueueEvent(event(""))).toBeUndefined()
      expect(queued.map((row) => row.url)).toEqual(["https://hooks.example/all"])
      expect(logged.map((row) => row.id)).toEqual(["ev_1"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("events of one change are logged and queued in the order given, each with its endpoint copies after it", () => {
    const { layer, logged, queued } = world([endpoint("https://hooks.example/all")])
    return Effect.gen(function*() {
      const second = { ...event("https://shop.example/ipn"), id: "ev_2", event: "payment.refunded" }
      const own = yield* enqueueEvents([event("https://shop.example/ipn"), second])
      expect(own.map((delivery) => delivery?.id)).toEqual(["ev_1", "ev_2"])
      expect(logged.map((row) => row.id)).toEqual(["ev_1", "ev_2"])
      expect(queued.map((row) => [row.event, row.url])).toEqual([
        ["payment.completed", "https://shop.example/ipn"],
        ["payment.completed", "https://hooks.example/all"],
        ["payment.refunded", "https://shop.example/ipn"],
        ["payment.refunded", "https://hooks.example/all"]
      ])
    }).pipe(Effect.provide(layer))
  })

  it.effect("with an empty ipn_url and no endpoint, nothing is queued and the event is still logged", () => {
    const { layer, logged, queued } = world([])
    return Effect.gen(function*() {
      yield* enqueueEvent(event(""))
      expect(queued).toEqual([])
      expect(logged).toHaveLength(1)
    }).pipe(Effect.provide(layer))
  })
})
