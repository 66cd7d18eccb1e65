import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { invoiceDocumentSuite } from "./suites/invoice-document-suite.js"

onThrowawayPostgres("invoice numbers and documents", (url) => invoiceDocumentSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))
