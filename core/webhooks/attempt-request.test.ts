import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { CredentialRepository } from "../merchants/credentials.js"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import { MerchantId } from "../shared/ids.js"
import * as RealClock from "../shared/real-clock.js"
import { SecretBox, seal } from "../signing/secret-box.js"
import { signStandardWebhook } from "../signing/standard-webhook-signature.js"
import { attemptRequest, type SignedEvent, signingInputs } from "./attempt-request.js"

const masterKey = new Uint8Array(32).fill(7)

/** A box that counts how often it opens a sealed secret. */
const countingBox = () => {
  const box = { opened: 0 }
  const layer = Layer.succeed(SecretBox, SecretBox.of({
    seal: (plaintext) => seal(masterKey, plaintext),
    open: (sealed) => {
      box.opened++
      return Either.right(opened.get(sealed)!)
    },
    digests: () => []
  }))
  return { box, layer }
}
const opened = new Map<string, string>()
const sealedAs = (plaintext: string) => {
  const sealed = seal(masterKey, plaintext)
  opened.set(sealed, plaintext)
  return sealed
}

const event: SignedEvent = {
  id: "evt_1",
  merchantId: MerchantId(1),
  environment: "sandbox",
  body: "{\"a\":1}",
  signingSecret: "webhook_secret"
}

describe("attempt request signing secrets", () => {
  it("opens a secret once across attempts, and signs with a rotated secret as soon as it is stored", async () => {
    let current = { sealedWebhookSecret: sealedAs("whsec-first"), sealedClientSecret: sealedAs("client-first") }
    const credentials = Layer.succeed(CredentialRepository, {
      liveSetsOf: () => Effect.succeed([{ merchantId: event.merchantId, environment: event.environment, ...current }])
    } as unknown as CredentialRepository["Type"])
    const merchants = Layer.succeed(MerchantRepository, {
      findByIds: () => Effect.succeed([])
    } as unknown as MerchantRepository["Type"])
    const { box, layer } = countingBox()
    const run = (at: number) =>
      Effect.runPromise(Effect.flatMap(signingInputs(event), (inputs) => attemptRequest(event, at, inputs)).pipe(Effect.provide(Layer.mergeAll(credentials, merchants, layer, RealClock.layer))))

    const first = await run(100)
    const second = await run(101)
    expect(box.opened).toBe(1)
    expect(second?.headers["webhook-signature"]).toBe(signStandardWebhook("whsec-first", event.id, 101, first!.body))

    current = { sealedWebhookSecret: sealedAs("whsec-second"), sealedClientSecret: current.sealedClientSecret }
    const rotated = await run(102)
    expect(box.opened).toBe(2)
    expect(rotated?.headers["webhook-signature"]).toBe(signStandardWebhook("whsec-second", event.id, 102, rotated!.body))
  })
})
