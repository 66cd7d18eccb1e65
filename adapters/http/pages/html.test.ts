import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { escapeHtml, Html, html, joinHtml, raw } from "./html.js"

/** Text whose every character is one of the markup-significant ones or anything else. */
const hostileText = fc.string({ unit: fc.oneof(fc.constantFrom("<", ">", "&", "\"", "'", "=", "/", " ", "`"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })) })

/** What a browser would read back from escaped text: the five entities undone, nothing else. */
const unescape = (text: string) =>
  text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&amp;/g, "&")

describe("html template", () => {
  it("escapes every interpolated string and number, in content and in quoted attributes", () => {
    const value = `"><img src=x onerror=alert('1')>&`
    expect(html`<p title="${value}">${value} ${42} ${10n}</p>`.markup).toBe(
      "<p title=\"&quot;&gt;&lt;img src=x onerror=alert(&#39;1&#39;)&gt;&amp;\">&quot;&gt;&lt;img src=x onerror=alert(&#39;1&#39;)&gt;&amp; 42 10</p>"
    )
  })

  it("passes Html fragments and arrays of them through, and writes nothing for null, undefined and false", () => {
    const items = ["a<b", "c"].map((item) => html`<li>${item}</li>`)
    const shown = false as boolean
    expect(html`<ul>${items}</ul>${null}${undefined}${shown && html`<p>hidden</p>`}${[[html`<i>x</i>`, "&"]]}`.markup).toBe(
      "<ul><li>a&lt;b</li><li>c</li></ul><i>x</i>&amp;"
    )
  })

  it("writes a raw constant as it is, and joins fragments with an escaped separator", () => {
    expect(html`<style>${raw("a>b{}")}</style>`.markup).toBe("<style>a>b{}</style>")
    expect(joinHtml([html`<b>1</b>`, html`<b>2</b>`], " & ").markup).toBe("<b>1</b> &amp; <b>2</b>")
    expect(joinHtml([], ", ").markup).toBe("")
  })

  it("is not forged by a lookalike object and refuses what its types refuse", () => {
    const lookalike = { markup: "<script>x</script>" } as unknown as Html
    expect(() => html`${lookalike}`).toThrow(TypeError)
    expect(() => html`${true as unknown as string}`).toThrow(TypeError)
    expect(() => new Html(Symbol("Html") as never, "<b>")).toThrow(TypeError)
  })

  it("escapes & < > \" ' and nothing else", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;")
    fc.assert(fc.property(hostileText, (text) => unescape(escapeHtml(text)) === text))
  })

  it("never lets an interpolated string make markup, in content or in an attribute", () => {
    fc.assert(fc.property(hostileText, hostileText, (content, attribute) => {
      const markup = html`<p data-x="${attribute}">${content}</p>`.markup
      const inner = markup.slice("<p data-x=\"".length, -"</p>".length)
      const [value, text] = [inner.slice(0, inner.indexOf("\">")), inner.slice(inner.indexOf("\">") + 2)]
      // No tag can open and no quote can close the attribute: the only < > " ' left are the template's own.
      expect(markup.replace(/^<p data-x="|">|<\/p>$/g, "")).not.toMatch(/[<>"']/)
      expect(unescape(value)).toBe(attribute)
      expect(unescape(text)).toBe(content)
    }))
  })
})
