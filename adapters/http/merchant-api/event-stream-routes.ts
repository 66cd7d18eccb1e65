import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { CredentialRepository } from "../../../core/merchants/credentials.js"
import type { MerchantRepository } from "../../../core/merchants/merchant-repository.js"
import { toIsoString } from "../../../core/shared/instant.js"
import type { RealClock } from "../../../core/shared/real-clock.js"
import type { SecretBox } from "../../../core/signing/secret-box.js"
import { eventStream, resumeSequence, streamPatterns, type StreamItem } from "../../../core/webhooks/event-stream.js"
import { defaultUserAgent } from "../../webhook-http/http-webhook-sender.js"
import { textParameter } from "../contract/keyset-parameters.js"
import { queryOf } from "../contract/query-contract.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { StreamedAnswer } from "../response/streamed-answer.js"
import { FileAnswer } from "../response/text-file.js"

const EVENT_STREAM = "text/event-stream"

const typesParameter = textParameter(
  "types",
  1_000,
  "Only events of these types, comma-separated: an event type (`invoice.paid`), a family (`payment.*`) or `*`. Every event when absent."
)

const encoder = new TextEncoder()

/**
 * One Server-Sent Events message: `id` is the event's place in the merchant's log (what a client
 * sends back as Last-Event-ID), `data` one line of JSON (JSON text has no raw line breaks).
 */
export const sseMessage = (item: StreamItem): string =>
  item._tag === "Heartbeat"
    ? ": heartbeat\n\n"
    : `id: ${item.event.sequence}\nevent: ${item.event.type}\ndata: ${
      JSON.stringify({
        id: item.event.id,
        type: item.event.type,
        object_id: item.event.objectId,
        created_at: toIsoString(item.event.createdAt),
        // The sender's own headers too, so a local receiver gets what a delivery brings, header for header.
        request: { body: item.request.body, headers: { ...item.request.headers, "content-type": "application/json", "user-agent": defaultUserAgent } }
      })
    }\n\n`

const stream = endpoint({
  method: "get",
  path: "/api/v1/events/stream",
  operationId: "streamEvents",
  summary: "Stream events as they happen (Server-Sent Events)",
  description: "For a developer's machine that cannot receive webhooks (`merchant-payments listen`). Each message is " +
    "`id: <sequence>`, `event: <type>` and `data:` the event's id, type, object_id, created_at and `request`: the exact " +
    "body and headers a delivery of it carries (X-Signature, X-Event-Id, webhook-id, webhook-timestamp, webhook-signature), " +
    "signed as the message is sent. Events are sent whether or not any target receives them, and no target is contacted. " +
    "Send the `Last-Event-ID` header with the last id received to resume after it (events are kept three days); without " +
    "it only new events are sent. A comment every 15 s keeps the connection alive. A merchant may hold 5 streams per " +
    "environment (429 with Retry-After beyond); the host ends a stream after 30 minutes, or as it shuts down, and the " +
    "client reconnects with Last-Event-ID.",
  tag: "Events",
  security: "merchant",
  query: queryOf({ types: typesParameter }),
  success: { status: 200, description: "The event stream.", schema: FileAnswer, files: [EVENT_STREAM] },
  errors: ["EventStreamLimitReached"],
  handler: ({ types }) =>
    Effect.gen(function*() {
      const patterns = yield* streamPatterns(types)
      const afterSequence = yield* resumeSequence((yield* HttpServerRequest.HttpServerRequest).headers["last-event-id"])
      const items = yield* eventStream(yield* CurrentMerchant, { patterns, afterSequence })
      // The stream runs after this handler returned: it is given now what signing reads.
      const signing = yield* Effect.context<CredentialRepository | MerchantRepository | SecretBox | RealClock>()
      return new StreamedAnswer(
        EVENT_STREAM,
        items.pipe(Stream.map((item) => encoder.encode(sseMessage(item))), Stream.provideContext(signing))
      )
    })
})

/** Issue 37: the event stream `listen` reads. */
export const eventStreamEndpoints = [stream] as const
