import { MerchantApiError, MerchantTransportError } from "../../client-errors.js"
import { type CliContext, ExitCode } from "../cli-command.js"

/**
 * Runs a command's calls to the host: a refusal (the API's own message, with its error code) or no
 * answer at all becomes one problem line and ExitCode.host; anything else is not the host's doing and
 * goes on to the dispatcher (a missing variable among the settings, a bug).
 */
export const withHost = async (context: CliContext, name: string, calls: () => Promise<ExitCode>): Promise<ExitCode> => {
  try {
    return await calls()
  } catch (error) {
    const problem = hostProblem(error)
    if (problem === undefined) throw error
    context.out.problem(`${name}: ${problem}`)
    return ExitCode.host
  }
}

/** The line naming a host's refusal or silence; undefined for any other error. */
export const hostProblem = (error: unknown): string | undefined => {
  if (error instanceof MerchantApiError) return `${error.method} ${error.path} answered ${error.status}${error.errorCode === undefined ? "" : ` ${error.errorCode}`}: ${error.message}`
  if (error instanceof MerchantTransportError) return error.message
  return undefined
}
