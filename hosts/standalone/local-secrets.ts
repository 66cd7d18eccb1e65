import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { Either } from "effect"
import { generateMasterKey, parseMasterKey } from "../../core/signing/secret-box.js"
import { ConfigProblem, type HostConfig } from "./host-config.js"

/** Where a SQLite quickstart keeps its generated secrets: beside the database file, readable by its owner only. */
export const secretsDirectory = (config: HostConfig): string | undefined =>
  config.store.kind === "sqlite" ? dirname(config.store.filename) : undefined

const readOrCreate = (path: string, create: () => string): string => {
  if (existsSync(path)) return readFileSync(path, "utf8").trim()
  mkdirSync(dirname(path), { recursive: true })
  const value = create()
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: "wx" })
  return value
}

export interface HostSecrets {
  readonly masterKey: Uint8Array
  readonly adminToken: string
  /** Where the admin token came from, for the start-up banner. */
  readonly adminTokenSource: "ADMIN_TOKEN" | "file" | "generated"
}

export const resolveSecrets = (config: HostConfig): HostSecrets => {
  const directory = secretsDirectory(config)
  let masterKeyText = config.masterKey
  if (masterKeyText === undefined) {
    // Hosts sharing PostgreSQL must share one key, so none may invent its own.
    if (directory === undefined) throw new ConfigProblem("MASTER_KEY is required with PostgreSQL: every host must use the same key")
    masterKeyText = readOrCreate(join(directory, "master.key"), generateMasterKey)
  }
  const masterKey = parseMasterKey(masterKeyText)
  if (Either.isLeft(masterKey)) throw new ConfigProblem(masterKey.left.message)

  if (config.adminToken !== undefined) return { masterKey: masterKey.right, adminToken: config.adminToken, adminTokenSource: "ADMIN_TOKEN" }
  const makeToken = () => `adm_${randomBytes(32).toString("base64url")}`
  return directory === undefined
    ? { masterKey: masterKey.right, adminToken: makeToken(), adminTokenSource: "generated" }
    : { masterKey: masterKey.right, adminToken: readOrCreate(join(directory, "admin.token"), makeToken), adminTokenSource: "file" }
}
