/**
 * The block-style subset of YAML that compose.yaml is written in: nested maps, lists of scalars,
 * scalars (plain, quoted, or a flow list kept as its text), null as "". No YAML library is a dependency, so the
 * deployment test reads the file with these rules and refuses anything outside them (tabs, an
 * indentation that matches no parent, a duplicate key, a line that is neither `key:` nor `- item`).
 */
export type ComposeNode = string | ReadonlyArray<string> | ComposeMap
export interface ComposeMap {
  readonly [key: string]: ComposeNode
}

interface Line {
  readonly number: number
  readonly indent: number
  readonly text: string
}

const unquote = (raw: string): string => {
  const value = raw.trim()
  if (/^"(?:[^"\\]|\\.)*"$/.test(value)) return JSON.parse(value) as string
  if (/^'[^']*'$/.test(value)) return value.slice(1, -1)
  // A plain scalar ends at " #": the rest is a comment.
  return value.replace(/\s+#.*$/, "")
}

const significant = (text: string): ReadonlyArray<Line> =>
  text.split("\n").flatMap((raw, index) => {
    if (raw.includes("\t")) throw new Error(`line ${index + 1}: tab character`)
    const trimmed = raw.trim()
    if (trimmed === "" || trimmed.startsWith("#")) return []
    return [{ number: index + 1, indent: raw.length - raw.trimStart().length, text: trimmed }]
  })

export const parseComposeSubset = (text: string): ComposeMap => {
  const lines = significant(text)
  let at = 0

  const block = (indent: number): ComposeNode => {
    if (lines[at]!.text.startsWith("- ")) {
      const items: Array<string> = []
      while (at < lines.length && lines[at]!.indent === indent && lines[at]!.text.startsWith("- ")) {
        items.push(unquote(lines[at]!.text.slice(2)))
        at++
      }
      return items
    }
    const map: Record<string, ComposeNode> = {}
    while (at < lines.length && lines[at]!.indent === indent) {
      const line = lines[at]!
      const match = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(line.text)
      if (match === null) throw new Error(`line ${line.number}: expected "key:" or "key: value", got "${line.text}"`)
      const key = match[1]!
      if (key in map) throw new Error(`line ${line.number}: duplicate key "${key}"`)
      at++
      if (match[2] !== undefined && !match[2].startsWith("#")) {
        map[key] = unquote(match[2])
      } else {
        const next = lines[at]
        // `key:` alone is null (a named volume with default options): kept as "".
        map[key] = next === undefined || next.indent <= indent ? "" : block(next.indent)
      }
    }
    return map
  }

  if (lines.length === 0) return {}
  if (lines[0]!.indent !== 0) throw new Error(`line ${lines[0]!.number}: the document must start at column 0`)
  const document = block(0)
  if (at < lines.length) throw new Error(`line ${lines[at]!.number}: indentation matches no parent key`)
  if (typeof document === "string" || Array.isArray(document)) throw new Error("the document is not a map")
  return document as ComposeMap
}

/** The map at `path`, or an error naming where it is missing. */
export const mapAt = (node: ComposeNode | undefined, ...path: ReadonlyArray<string>): ComposeMap => {
  let current = node
  for (const key of path) {
    if (current === undefined || typeof current === "string" || Array.isArray(current)) throw new Error(`no map at ${path.join(".")}`)
    current = (current as ComposeMap)[key]
  }
  if (current === undefined || typeof current === "string" || Array.isArray(current)) throw new Error(`no map at ${path.join(".")}`)
  return current as ComposeMap
}
