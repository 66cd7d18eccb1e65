import { describe, expect, it } from "vitest"
import { decodeEntities, formsIn, pressButton } from "./html-forms.js"

describe("reading a plugin's rendered forms", () => {
  it("decodes named and numeric entities, leaving bare ampersands alone", () => {
    expect(decodeEntities("a&amp;b &lt;i&gt; &quot;q&quot; &#39;s&#x27; &#128512; x&y &bogus;")).toBe("a&b <i> \"q\" 's' 😀 x&y &bogus;")
  })

  it("submits a pressed button's own name and value with the form's hidden fields, as a browser does", () => {
    const html = `<form action='https://r.example/?a=1&amp;b=2' METHOD=POST>
      <input type="hidden" name="trx_id" value="T&amp;1"><input name="visible" value="no"><input type=hidden name=k value=v />
      <button name="outcome" value="paid" data-testid="pay">Pay</button>
      <button type="submit" name="outcome" value="declined" data-testid="decline">Decline</button>
      <button type="button" data-testid="help">?</button>
    </form>`
    expect(formsIn(html)).toHaveLength(1)
    expect(pressButton(html, "pay")).toEqual({ action: "https://r.example/?a=1&b=2", method: "post", fields: { trx_id: "T&1", k: "v", outcome: "paid" } })
    expect(pressButton(html, "decline")?.fields["outcome"]).toBe("declined")
    expect(pressButton(html, "help")).toBeUndefined()
  })

  it("finds nothing to press when no button, or more than one, carries the test id", () => {
    const twice = `<form><button data-testid="pay">A</button></form><form><button data-testid="pay">B</button></form>`
    expect(pressButton(twice, "pay")).toBeUndefined()
    expect(pressButton("<p>no form</p>", "pay")).toBeUndefined()
  })
})
