import { makeStripeCheckoutPlugin } from "../../adapters/gateways/stripe-checkout/index.js"
import { fromStripeMinor } from "../../adapters/gateways/stripe-checkout/stripe-amounts.js"
import { type FakeStripe, makeFakeStripe } from "../../adapters/gateways/stripe-checkout/testing/fake-stripe.js"
import { hostPlugin } from "../../core/gateways/plugin-hosting.js"
import { parseStripeCheckoutConfig } from "../../adapters/gateways/stripe-checkout/stripe-checkout-config.js"
import { manualRail, pluginRail } from "../../core/payouts/payout-rail.js"
import { payoutRailConformance } from "./payout-rail-cases.js"

/** The built-in rails: the manual one (the operator's bank file) and the Stripe plugin's Connect transfers against the fake. */
payoutRailConformance(() => manualRail, {
  destination: () => ({ type: "bank_account", accountHolder: "Payout Shop GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX" })
})

const ACCOUNT = "acct_1RailConformance0001"
let fake: FakeStripe | undefined
const stripe = hostPlugin(makeStripeCheckoutPlugin(), { callTimeoutMillis: 2_000 })

payoutRailConformance(() => pluginRail(stripe), {
  setup: async () => {
    fake = makeFakeStripe()
    await fake.start()
    fake.connectAccount(ACCOUNT)
    fake.fund("EUR", 10_000_000_000n)
  },
  teardown: () => fake?.close(),
  get config() {
    return parseStripeCheckoutConfig({ secret_key: fake!.secretKey, webhook_secret: "whsec_railConformance000000000000", api_base: fake!.apiBase })
  },
  destination: () => ({ type: "stripe_account", accountId: ACCOUNT }),
  refusedDestination: () => ({ type: "stripe_account", accountId: "acct_notOneOfThePlatforms" }),
  received: (payoutId) =>
    fake!.transfers()
      .filter(({ transfer }) => (transfer["metadata"] as Record<string, string>)["payout_id"] === payoutId)
      .map(({ transfer }) => fromStripeMinor(transfer["amount"] as number, transfer["currency"] as string))
})
