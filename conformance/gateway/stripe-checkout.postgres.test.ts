import { onThrowawayPostgres } from "../support/on-throwaway-postgres.js"
import { stripeCheckoutConformance } from "./stripe-driver.js"

// The golden cases once more on PostgreSQL: notifications racing returns, claims and refunds there.
onThrowawayPostgres("gateway plugin conformance: stripe-checkout", (url) =>
  stripeCheckoutConformance({ label: "postgres", config: () => ({ kind: "postgres", url: url() }) }))
