import { parseArgs, type ParseArgsConfig } from "node:util"
import type { CliCommand, CliContext } from "../cli-command.js"

type Options = NonNullable<ParseArgsConfig["options"]>

/** The flags and arguments of one command line, as parseArgs reads them under `options`. */
export type CommandArgs<O extends Options> = ReturnType<typeof parseArgs<{ args: Array<string>; options: O; strict: true; allowPositionals: boolean }>>

/**
 * A command's flags read strictly (an unknown flag or a missing value is a usage error, never a
 * guess): the parsed values, or undefined once the problem and the command's usage are printed, so
 * the command answers ExitCode.usage.
 */
export const commandArgs = <const O extends Options>(
  context: CliContext,
  command: Pick<CliCommand, "name" | "usage">,
  args: ReadonlyArray<string>,
  options: O,
  positionals: { readonly min: number; readonly max: number } = { min: 0, max: 0 }
): CommandArgs<O> | undefined => {
  const fail = (problem: string) => {
    context.out.problem(`${command.name}: ${problem}`)
    context.out.problem(command.usage)
    return undefined
  }
  try {
    const parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: positionals.max > 0 })
    if (parsed.positionals.length < positionals.min) return fail("an argument is missing.")
    if (parsed.positionals.length > positionals.max) return fail(`unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])}.`)
    return parsed
  } catch (error) {
    // parseArgs says which flag is unknown or lacks its value; that sentence is the usage error.
    return fail(error instanceof Error ? error.message : String(error))
  }
}

/** A whole number flag within [min, max], or undefined when absent; a string naming the problem when out of range. */
export const wholeNumberFlag = (name: string, value: string | undefined, min: number, max: number): number | undefined | { readonly problem: string } => {
  if (value === undefined) return undefined
  const number = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN
  return number >= min && number <= max ? number : { problem: `--${name} must be a whole number from ${min} to ${max}.` }
}
