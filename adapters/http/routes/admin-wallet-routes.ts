import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { environments } from "../../../core/merchants/environment.js"
import { MerchantId, WalletId } from "../../../core/shared/ids.js"
import { adjustWallet, createWallet, listWallets, setWalletActive } from "../../../core/wallets/wallet-admin.js"
import { adminEndpoint } from "../admin-endpoint.js"
import { created, ok } from "../api-response.js"
import { BodyFields } from "../body-fields.js"
import { pathId } from "../path-params.js"
import { jsonObjectBody } from "../request-body.js"
import { adjustmentJson, walletJson } from "../serializers.js"

const merchantId = Effect.map(pathId("id", "Merchant"), MerchantId)
const walletId = Effect.map(pathId("id", "Wallet"), WalletId)

export const adminWalletRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/merchants/:id/wallets",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const fields = new BodyFields(yield* jsonObjectBody)
      const currency = fields.string("currency_code", { required: true, max: 10 })
      const environment = fields.oneOf("environment", environments, { required: true })
      yield* fields.done(() => undefined)
      return created(walletJson(yield* createWallet(id, currency!, environment!)))
    }))
  ),
  HttpRouter.get(
    "/merchants/:id/wallets",
    adminEndpoint(Effect.map(Effect.flatMap(merchantId, listWallets), (wallets) => ok({ data: wallets.map(walletJson) })))
  ),
  HttpRouter.patch(
    "/wallets/:id",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* walletId
      const fields = new BodyFields(yield* jsonObjectBody)
      const active = fields.boolean("active", { required: true })
      yield* fields.done(() => undefined)
      return ok(walletJson(yield* setWalletActive(id, active!)))
    }))
  ),
  HttpRouter.post(
    "/wallets/:id/adjustments",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* walletId
      const fields = new BodyFields(yield* jsonObjectBody)
      const amount = fields.amount("amount", { required: true })
      const reason = fields.string("reason", { required: true, max: 255 })
      yield* fields.done(() => undefined)
      const { entry, currency } = yield* adjustWallet(id, amount!, reason!)
      return created(adjustmentJson(entry, currency))
    }))
  )
)
