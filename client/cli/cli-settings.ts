import type { CliSettings } from "./cli-command.js"

/** A setting read from the environment unless its flag names it. */
interface Setting {
  readonly flag: string
  readonly variable: string
}

export const SETTINGS = {
  baseUrl: { flag: "--base-url", variable: "PAYMENTS_URL" },
  environment: { flag: "--environment", variable: "PAYMENTS_ENVIRONMENT" },
  merchantKey: { flag: "--merchant-key", variable: "MERCHANT_KEY" },
  apiKey: { flag: "--api-key", variable: "API_KEY" },
  clientSecret: { flag: "--client-secret", variable: "CLIENT_SECRET" },
  webhookSecret: { flag: "--webhook-secret", variable: "WEBHOOK_SECRET" }
} as const satisfies Record<string, Setting>

/** A setting the command needs is missing or invalid: exit code `config`, its message printed. */
export class CliConfigProblem extends Error {}

/** The global flags taken out of the arguments, wherever they stand, and what is left for the command. */
export interface GlobalFlags {
  readonly json: boolean
  readonly help: boolean
  readonly flags: Readonly<Record<string, string>>
  readonly rest: ReadonlyArray<string>
}

const VALUED = new Set<string>(Object.values(SETTINGS).map((setting) => setting.flag))

/** `--flag value` and `--flag=value` both; a valued flag with no value is a usage problem (thrown as a message). */
export const takeGlobalFlags = (args: ReadonlyArray<string>): GlobalFlags | { readonly problem: string } => {
  const flags: Record<string, string> = {}
  const rest: Array<string> = []
  let json = false
  let help = false
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    if (name === "--json") json = true
    else if (name === "--help" || name === "-h") help = true
    else if (VALUED.has(name)) {
      const value = inline ?? args[++index]
      if (value === undefined || value === "") return { problem: `${name} needs a value.` }
      flags[name] = value
    } else rest.push(arg)
  }
  return { json, help, flags, rest }
}

/**
 * The settings, flags over variables. Each is checked when read, and throws CliConfigProblem naming
 * what is missing or wrong: a command that needs only the secrets (verify-signature) reads them with
 * no host configured, and the global --client-secret / --webhook-secret flags still reach it.
 */
export const readSettings = (flags: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv): CliSettings => {
  const read = (setting: Setting) => {
    const value = flags[setting.flag] ?? env[setting.variable]
    return value === undefined || value === "" ? undefined : value
  }
  const required = (setting: Setting) => {
    const value = read(setting)
    if (value === undefined) throw new CliConfigProblem(`Set ${setting.variable} or pass ${setting.flag}.`)
    return value
  }
  return {
    get baseUrl() {
      const baseUrl = required(SETTINGS.baseUrl)
      if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
        throw new CliConfigProblem(`${SETTINGS.baseUrl.variable} must be an http(s) URL, such as http://127.0.0.1:3000.`)
      }
      return baseUrl
    },
    get environment() {
      const environment = read(SETTINGS.environment) ?? "sandbox"
      if (environment !== "sandbox" && environment !== "production") {
        throw new CliConfigProblem(`${SETTINGS.environment.variable} must be sandbox or production, not "${environment}".`)
      }
      return environment
    },
    get merchantKey() {
      return required(SETTINGS.merchantKey)
    },
    get apiKey() {
      return required(SETTINGS.apiKey)
    },
    get clientSecret() {
      return required(SETTINGS.clientSecret)
    },
    get webhookSecret() {
      return read(SETTINGS.webhookSecret)
    }
  }
}
