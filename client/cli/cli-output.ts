import type { CliOutput } from "./cli-command.js"

const CODES = { green: 32, red: 31, yellow: 33, dim: 2, bold: 1 } as const

export interface OutputStreams {
  readonly stdout: { readonly isTTY?: boolean; write(text: string): unknown }
  readonly stderr: { write(text: string): unknown }
}

/**
 * What a command writes through. Colour only for a person at a terminal: not under `--json`, not
 * when stdout is piped, and never when NO_COLOR is set to anything (no-color.org).
 */
export const makeOutput = (json: boolean, env: NodeJS.ProcessEnv, streams: OutputStreams = process): CliOutput => {
  const tty = streams.stdout.isTTY === true
  const coloured = tty && !json && (env.NO_COLOR === undefined || env.NO_COLOR === "")
  return {
    json,
    tty,
    line: (text) => {
      if (!json) streams.stdout.write(`${text}\n`)
    },
    data: (value) => {
      if (json) streams.stdout.write(`${JSON.stringify(value)}\n`)
    },
    problem: (text) => void streams.stderr.write(`${text}\n`),
    colour: (name, text) => (coloured ? `\u001b[${CODES[name]}m${text}\u001b[0m` : text)
  }
}
