import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { readHostConfig } from "../embedding/host-config.js"
import { SHUTDOWN_GRACE_MS } from "./graceful-server.js"
import { type ComposeMap, type ComposeNode, mapAt, parseComposeSubset } from "../../testing/hosts/compose-lines.js"
import { ROOT } from "../../testing/hosts/child-hosts.js"

/**
 * What can be checked of the Dockerfile and compose.yaml without Docker (docs/deployment.md): they
 * run the built host with node, agree with the host's own settings, and give every host of the
 * cluster the values that must be equal.
 */
const read = (name: string) => readFileSync(join(ROOT, name), "utf8")
let composeProblem: unknown
const compose = ((): ComposeMap => {
  try {
    return parseComposeSubset(read("compose.yaml"))
  } catch (problem) {
    composeProblem = problem
    return { services: {} }
  }
})()
const services = mapAt(compose, "services")
const SERVE = ["node", "dist/hosts/standalone/main.js", "serve"]
const MIGRATE = ["node", "dist/hosts/standalone/main.js", "migrate"]
const MUST_BE_EQUAL = ["DATABASE_URL", "MASTER_KEY", "ADMIN_TOKEN", "BASE_URL", "BASE_PATH", "CRYPTO_CURRENCIES", "CLOCK",
  "SIGNATURE_TOLERANCE_SECONDS", "RATE_LIMIT_PER_MINUTE", "CHECKOUT_LIFETIME_MINUTES", "GATEWAY_PLUGINS", "WEBHOOK_ALLOW_PRIVATE_TARGETS"]

const fromDockerfile = Object.entries(services).filter(([, service]) => (service as ComposeMap)["build"] === ".")
/** Services built from the Dockerfile that keep its CMD: the hosts. */
const hosts = fromDockerfile.filter(([, service]) => (service as ComposeMap)["command"] === undefined)
const environment = (service: ComposeNode) => mapAt(service, "environment") as Readonly<Record<string, string>>

describe("deployment files: Dockerfile", () => {
  // One entry per instruction: comments dropped, lines ending in a backslash joined to the next.
  const instructions = read("Dockerfile").split("\n").map((line) => line.trim()).filter((line) => !line.startsWith("#"))
    .join("\n").replace(/\\\n/g, " ").split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line !== "")

  it("builds and runs on node:20-slim with npm install (never npm ci) and npm run build", () => {
    const bases = instructions.filter((line) => line.startsWith("FROM "))
    expect(bases.length).toBeGreaterThanOrEqual(1)
    expect(bases.every((line) => /^FROM node:20-slim( AS \w+)?$/.test(line))).toBe(true)
    expect(instructions).toContain("RUN npm install")
    expect(instructions.some((line) => /\bnpm ci\b/.test(line))).toBe(false)
    expect(instructions.some((line) => /^RUN npm run build\b/.test(line))).toBe(true)
  })

  it("starts node on the built main.js directly (exec form), as a user that is not root", () => {
    const cmd = instructions.filter((line) => line.startsWith("CMD "))
    expect(cmd).toHaveLength(1)
    expect(JSON.parse(cmd[0]!.slice(4))).toEqual(SERVE)
    expect(existsSync(join(ROOT, "hosts", "standalone", "main.ts"))).toBe(true)
    expect(JSON.parse(read("tsconfig.build.json")).compilerOptions.outDir).toBe("dist")
    const lastStage = instructions.slice(instructions.map((line) => line.startsWith("FROM ")).lastIndexOf(true))
    const users = lastStage.filter((line) => line.startsWith("USER "))
    expect(users).toHaveLength(1)
    expect(users[0]).not.toMatch(/^USER (root|0)(:|$)/)
    expect(lastStage.indexOf(users[0]!)).toBeLessThan(lastStage.indexOf(cmd[0]!))
  })

  it("exposes the host's default port and checks its health on /healthz", () => {
    expect(instructions).toContain(`EXPOSE ${readHostConfig({}).port}`)
    const healthcheck = instructions.filter((line) => line.startsWith("HEALTHCHECK "))
    expect(healthcheck).toHaveLength(1)
    expect(healthcheck[0]).toMatch(/ CMD \[.*\/healthz/)
  })

  it("leaves local state and secrets out of the build context", () => {
    const ignored = read(".dockerignore").split("\n").map((line) => line.trim())
    for (const entry of ["node_modules", "dist", "data", ".env", ".git"]) expect(ignored).toContain(entry)
  })
})

describe("deployment files: compose.yaml", () => {
  it("is well-formed: block maps and lists, two-space nesting, no tab, no duplicate key", () => {
    expect(composeProblem).toBeUndefined()
  })

  it("is PostgreSQL 16 with a health check, a one-shot migrate and two hosts", () => {
    expect(Object.keys(compose).sort()).toEqual(["services", "volumes"])
    expect(services["postgres"]).toMatchObject({ image: "postgres:16" })
    expect(mapAt(services, "postgres", "healthcheck")["test"]).toMatch(/pg_isready/)
    const migrate = mapAt(services, "migrate")
    expect(JSON.parse(migrate["command"] as string)).toEqual(MIGRATE)
    expect(mapAt(migrate, "depends_on", "postgres")["condition"]).toBe("service_healthy")
    expect(hosts.length).toBe(2)
  })

  it("gives every host the same values for what must be equal, and the migrate job the same database", () => {
    const envs = hosts.map(([, service]) => environment(service))
    for (const name of ["DATABASE_URL", "MASTER_KEY", "ADMIN_TOKEN", "BASE_URL"]) {
      expect(envs[0]![name], name).toMatch(/\S/)
    }
    for (const name of MUST_BE_EQUAL) {
      expect(new Set(envs.map((env) => env[name])).size, name).toBe(1)
    }
    expect(environment(services["migrate"]!)["DATABASE_URL"]).toBe(envs[0]!["DATABASE_URL"])
    expect(envs[0]!["DATABASE_URL"]).toMatch(/^postgres(ql)?:\/\/.*@postgres:5432\//)
    // Secrets come from the operator's .env, never from the file itself.
    for (const name of ["MASTER_KEY", "ADMIN_TOKEN"]) expect(envs[0]![name]).toMatch(new RegExp(`^\\$\\{${name}:\\?`))
  })

  it("names only settings the host reads; one host at most seeds the demo", () => {
    const source = read(join("hosts", "embedding", "host-config.ts"))
    const settingsRead = new Set([...source.matchAll(/variable\("([A-Z0-9_]+)"/g)].map((match) => match[1]!))
    expect(settingsRead.has("MASTER_KEY")).toBe(true)
    for (const [name, service] of fromDockerfile) {
      for (const variable of Object.keys(environment(service))) expect(settingsRead.has(variable), `${name}: ${variable}`).toBe(true)
    }
    expect(hosts.filter(([, service]) => (environment(service)["DEMO"] ?? "true") !== "false")).toHaveLength(1)
  })

  it("starts hosts after migrate succeeded, publishes each on its own port, and outwaits the host's shutdown grace", () => {
    const published = hosts.map(([, service]) => {
      expect(mapAt(service, "depends_on", "migrate")["condition"]).toBe("service_completed_successfully")
      expect(Number.parseInt(String((service as ComposeMap)["stop_grace_period"]), 10) * 1000).toBeGreaterThan(SHUTDOWN_GRACE_MS)
      const ports = (service as ComposeMap)["ports"] as ReadonlyArray<string>
      expect(ports).toHaveLength(1)
      expect(ports[0]).toMatch(new RegExp(`^\\d+:${readHostConfig({}).port}$`))
      return ports[0]!.split(":")[0]
    })
    expect(new Set(published).size).toBe(hosts.length)
  })
})
