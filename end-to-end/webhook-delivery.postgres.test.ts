import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { webhookDeliverySuite } from "./suites/webhook-delivery-suite.js"

onThrowawayPostgres("webhook delivery", (url) => webhookDeliverySuite("postgres", () => ({ kind: "postgres", url: url() })))
