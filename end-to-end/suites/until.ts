/** Polls `condition` every 25 ms until it holds; fails after `timeoutMs`, naming what it waited for. */
export const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = "a condition") => {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
