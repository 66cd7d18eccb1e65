import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantId } from "../shared/ids.js"
import type { OutboxMail, RenderedMail } from "./mail.js"
import { MailOutbox } from "./mail-outbox.js"
import { MailRenderer } from "./mail-renderer.js"

/** A sandbox mail as the dashboard shows it: the outbox row and what its templates make of it. */
export interface ShownMail {
  readonly mail: OutboxMail
  readonly rendered: RenderedMail
}

const shown = (mail: OutboxMail) => Effect.map(Effect.flatMap(MailRenderer, (renderer) => renderer.render(mail)), (rendered): ShownMail => ({ mail, rendered }))

/** The merchant's sandbox mail, newest first, rendered. */
export const listSandboxMail = (merchantId: MerchantId, limit: number) =>
  Effect.flatMap(Effect.flatMap(MailOutbox, (outbox) => outbox.listForMerchant(merchantId, "sandbox", limit)), (mails) => Effect.forEach(mails, shown))

/** One of the merchant's sandbox mails, rendered; none for another merchant's or a production one. */
export const findSandboxMail = (merchantId: MerchantId, id: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* MailOutbox).find(merchantId, id)
    if (Option.isNone(found) || found.value.environment !== "sandbox") return Option.none<ShownMail>()
    return Option.some(yield* shown(found.value))
  })
