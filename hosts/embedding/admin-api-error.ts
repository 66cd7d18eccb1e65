/**
 * The admin API refused: the same status, code, message and field errors as over HTTP. A module of
 * its own so that the package's entry exports it without loading the admin API's declarations.
 */
export class AdminApiError extends Error {
  override readonly name = "AdminApiError"
  constructor(readonly status: number, readonly errorCode: string, message: string, readonly errors: Readonly<Record<string, ReadonlyArray<string>>>) {
    super(message)
  }
}
