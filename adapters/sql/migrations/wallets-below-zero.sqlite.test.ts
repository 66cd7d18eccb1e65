import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { walletsBelowZero } from "../testing/wallets-below-zero.js"

walletsBelowZero("sqlite", SqliteClient.layer({ filename: join(mkdtempSync(join(tmpdir(), "mp-below-zero-")), "store.db") }))
