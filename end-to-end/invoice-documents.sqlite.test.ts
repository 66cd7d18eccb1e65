import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { invoiceDocumentSuite } from "./suites/invoice-document-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-invoice-documents-"))
invoiceDocumentSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))
