import type { Page } from "playwright-core"
import { expect } from "vitest"

// What the browser test asks of every checkout page, at any size.

/** The page's own widths; `document`/`window` are the page's, not this file's (no DOM lib here), hence the string. */
const widths = (page: Page) =>
  page.evaluate<{ scrollWidth: number; innerWidth: number }>("({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })")

/** Every button and link on the page is at least 44 px in both directions: a thumb can hit it. */
export const expectTapTargets = async (page: Page) => {
  const targets = page.locator("button, a")
  expect(await targets.count()).toBeGreaterThan(0)
  for (const target of await targets.all()) {
    const box = await target.boundingBox()
    const label = await target.innerText()
    expect(box, label).not.toBeNull()
    expect(box!.height, `height of "${label}"`).toBeGreaterThanOrEqual(44)
    expect(box!.width, `width of "${label}"`).toBeGreaterThanOrEqual(44)
  }
}

export const expectNoSideways = async (page: Page, width: number) => {
  const { scrollWidth, innerWidth } = await widths(page)
  expect(innerWidth).toBe(width)
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

/** The trx id on one line: its text is as tall as one line of its own font. */
export const expectTrxOnOneLine = async (page: Page) => {
  const trx = page.locator("code.trx")
  const lineHeight = await trx.evaluate((element) => {
    const style = (globalThis as any).getComputedStyle(element)
    return (parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4) as number
  })
  expect((await trx.boundingBox())!.height).toBeLessThan(lineHeight * 1.5)
}

