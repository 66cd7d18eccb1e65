import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { webhookEndpointSuite } from "./suites/webhook-endpoint-suite.js"

onThrowawayPostgres("webhook endpoints over HTTP", (url) => webhookEndpointSuite("postgres", () => ({ kind: "postgres", url: url() })))
