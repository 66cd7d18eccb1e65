import { describe, expect, it } from "vitest"
import { csvField, csvRecord, csvText } from "./csv.js"

describe("CSV cells", () => {
  it("quotes only fields with a comma, a quote, CR or LF, doubling the quotes (RFC 4180)", () => {
    expect(csvField("plain text")).toBe("plain text")
    expect(csvField("a,b")).toBe("\"a,b\"")
    expect(csvField("say \"hi\"")).toBe("\"say \"\"hi\"\"\"")
    expect(csvField("two\nlines")).toBe("\"two\nlines\"")
    expect(csvField("cr\r")).toBe("\"cr\r\"")
    expect(csvField("")).toBe("")
  })

  it("defuses text that a spreadsheet would run as a formula, and leaves numbers alone", () => {
    expect(csvText("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"")
    expect(csvText("+1")).toBe("'+1")
    expect(csvText("-2+3")).toBe("'-2+3")
    expect(csvText("@SUM(A1)")).toBe("'@SUM(A1)")
    expect(csvText("\tindent")).toBe("'\tindent")
    expect(csvText("refund, damaged")).toBe("\"refund, damaged\"")
    expect(csvText("a=b")).toBe("a=b")
    expect(csvText(null)).toBe("")
    expect(csvField("-12.50")).toBe("-12.50")
  })

  it("ends every record with CRLF", () => {
    expect(csvRecord(["a", "\"b,c\"", ""])).toBe("a,\"b,c\",\r\n")
  })
})
