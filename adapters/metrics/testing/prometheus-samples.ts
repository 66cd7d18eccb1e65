/**
 * Samples of a Prometheus text exposition, for tests: `name{label="value",...} number` lines, read
 * with the format's escapes. Comments (# HELP, # TYPE) are checked for shape, then skipped.
 */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

const unescape = (value: string) => value.replace(/\\(.)/g, (_, char: string) => (char === "n" ? "\n" : char))

const number = (text: string): number =>
  text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : text === "NaN" ? NaN : Number(text)

export const parseSamples = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").filter((line) => line !== "").flatMap((line) => {
    if (line.startsWith("#")) {
      if (!/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) throw new Error(`not a HELP or TYPE line: ${line}`)
      return []
    }
    const match = LINE.exec(line)
    if (match === null) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) labels[key!] = unescape(value!)
    return [{ name: match[1]!, labels, value: number(match[3]!) }]
  })

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none yet. */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Readonly<Record<string, string>> = {}): number => {
  const found = samples.filter((sample) =>
    sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value) &&
    Object.keys(sample.labels).filter((key) => key !== "le").length === Object.keys(labels).filter((key) => key !== "le").length)
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value ?? 0
}

/** The TYPE line's word for `name` (counter, gauge, histogram), or undefined. */
export const typeOf = (text: string, name: string): string | undefined =>
  new RegExp(`^# TYPE ${name} (\\w+)$`, "m").exec(text)?.[1]
