import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { MerchantId, WalletId } from "../../../core/shared/ids.js"
import { adjustWallet, createWallet, listWallets, setWalletActive } from "../../../core/wallets/wallet-admin.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { created, ok } from "../response/api-response.js"
import { adjustWalletBody, createWalletBody, updateWalletBody } from "../contract/admin-contracts.js"
import { merchantIdInPath, walletIdInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import { adjustmentJson, walletJson } from "../response/serializers.js"

const merchantId = Effect.map(merchantIdInPath.read, MerchantId)
const walletId = Effect.map(walletIdInPath.read, WalletId)

export const adminWalletRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/merchants/:id/wallets",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* merchantId
      const body = yield* validBody(createWalletBody)
      return created(walletJson(yield* createWallet(id, body.currency_code, body.environment)))
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
      const { active } = yield* validBody(updateWalletBody)
      return ok(walletJson(yield* setWalletActive(id, active)))
    }))
  ),
  HttpRouter.post(
    "/wallets/:id/adjustments",
    adminEndpoint(Effect.gen(function*() {
      const id = yield* walletId
      const { amount, reason } = yield* validBody(adjustWalletBody)
      const { entry, currency } = yield* adjustWallet(id, amount, reason)
      return created(adjustmentJson(entry, currency))
    }))
  )
)
