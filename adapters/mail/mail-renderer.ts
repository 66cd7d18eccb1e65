import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { MailRenderer } from "../../core/mail/mail-renderer.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { CurrencyCatalog } from "../../core/money/currency-catalog.js"
import { heldExponent } from "../../core/money/currencies.js"
import { DEFAULT_LOCALE, localeOfTag } from "../http/checkout/locale.js"
import { layoutMail } from "./mail-layout.js"
import { mailMessagesFor } from "./mail-messages.js"
import { mailBody } from "./mail-templates.js"

/**
 * The templates as the MailRenderer port: the mail's language from its tag (English otherwise), the
 * merchant's name from the store, links under `baseUrl`.
 */
export const layer = (options: { readonly baseUrl: string }) =>
  Layer.effect(
    MailRenderer,
    Effect.gen(function*() {
      const merchants = yield* MerchantRepository
      const catalog = yield* CurrencyCatalog
      const baseUrl = options.baseUrl.replace(/\/+$/, "")
      return MailRenderer.of({
        render: (mail) =>
          Effect.gen(function*() {
            const locale = (mail.locale === null ? undefined : localeOfTag(mail.locale)) ?? DEFAULT_LOCALE
            const messages = mailMessagesFor(locale)
            const merchant = Option.match(yield* merchants.findById(mail.merchantId), { onNone: () => "", onSome: (found) => found.name })
            const context = { locale, messages, merchant, baseUrl, exponentOf: (currency: string) => heldExponent(catalog, currency) }
            return layoutMail(mailBody(mail, context), { locale, messages, merchant, sandbox: mail.environment === "sandbox" })
          })
      })
    })
  )
