/**
 * Rows as aligned columns for a person reading a terminal: each column as wide as its widest cell,
 * two spaces between, no trailing space.
 */
export const textTable = (rows: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<string> => {
  const widths: Array<number> = []
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)))
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ").trimEnd())
}
