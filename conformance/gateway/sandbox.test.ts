import { makeSandboxPlugin } from "../../adapters/gateways/sandbox/index.js"
import { pressButton } from "./html-forms.js"
import { gatewayPluginConformance } from "./suite.js"

const TEST_IDS = { paid: "pay", declined: "decline", cancelled: "cancel" } as const

/** The simulator's customer presses one of the buttons on its form; there is no gateway to notify. */
gatewayPluginConformance(makeSandboxPlugin({ secret: new Uint8Array(32).fill(11) }), {
  driver: {
    config: { label: "Conformance" },
    customer: async (checkout, outcome) => {
      const pressed = checkout.page === undefined ? undefined : pressButton(checkout.page, TEST_IDS[outcome])
      return pressed === undefined ? undefined : { returnFields: pressed.fields }
    },
    // The test cards the form offers a saving checkout (docs/plugins.md).
    savingCustomer: async (checkout, kind) =>
      checkout.page === undefined ? undefined : pressButton(checkout.page, kind === "chargeable" ? "pay-card-success" : "pay-card-decline")?.fields
  }
})
