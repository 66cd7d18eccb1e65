import { HostFailure, type HostConfig } from "../embedding/host-config.js"

interface Described {
  readonly message?: unknown
  readonly code?: unknown
  readonly syscall?: unknown
  readonly path?: unknown
  readonly port?: unknown
  readonly address?: unknown
  readonly _tag?: unknown
}

/** The error and the causes it wraps, outermost first (ServeError -> listen error, SqlError -> pg error). */
const chain = (error: unknown): ReadonlyArray<Described> => {
  const found: Array<Described> = []
  let current = error
  while (typeof current === "object" && current !== null && found.length < 8) {
    found.push(current as Described)
    current = (current as { cause?: unknown }).cause
  }
  return found
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

/** One line, whatever the message held: the operator reads it in a terminal or a log. */
const oneLine = (message: string) => message.replace(/\s*\n\s*/g, " ").trim()

const fileReasons: Readonly<Record<string, string>> = {
  ENOTDIR: "a part of the path is a file, not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EEXIST: "a file is in the way of a directory",
  EROFS: "the file system is read-only",
  EISDIR: "it is a directory",
  ENOSPC: "the disk is full"
}

/** Where a PostgreSQL URL points, without its user or password. */
const postgresTarget = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname}`
  } catch {
    return "DATABASE_URL"
  }
}

/**
 * Why the host could not start (or had to stop), as one line an operator can act on: which setting to
 * change, never a stack trace, never a password.
 */
export const explainFailure = (error: unknown, config?: HostConfig): string => {
  if (error instanceof HostFailure) return error.message
  const causes = chain(error)
  const codeOf = (cause: Described) => text(cause.code) ?? ""
  const coded = causes.find((cause) => codeOf(cause) !== "")
  const code = coded === undefined ? "" : codeOf(coded)
  const innermost = causes.at(-1)
  const detail = oneLine(text(innermost?.message) ?? String(error))

  if (causes.some((cause) => cause._tag === "ServeError") || coded?.syscall === "listen") {
    const port = typeof coded?.port === "number" ? coded.port : config?.port
    if (code === "EADDRINUSE") return `port ${port} is in use (set PORT)`
    if (code === "EACCES") return `port ${port} needs privileges this user lacks (set PORT above 1023)`
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") return `cannot listen on ${config?.host ?? coded?.address}: not an address of this machine (set HOST)`
    return `cannot listen on port ${port}: ${detail} (set PORT or HOST)`
  }
  const path = text(coded?.path)
  if (path !== undefined && code in fileReasons) return `cannot use ${path}: ${fileReasons[code]} (set DATA_DIR or DATABASE_URL)`
  if (config?.store.kind === "sqlite" && code.startsWith("SQLITE_")) {
    return `cannot open the SQLite database ${config.store.filename}: ${detail} (set DATA_DIR or DATABASE_URL)`
  }
  if (config?.store.kind === "postgres" && causes.some((cause) => cause._tag === "SqlError")) {
    if (code === "ERR_INVALID_URL") return "DATABASE_URL is not a valid URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)"
    return `cannot connect to PostgreSQL at ${postgresTarget(config.store.url)}: ${detail} (check DATABASE_URL)`
  }
  return detail
}
