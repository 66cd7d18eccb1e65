import { mkdirSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { expect } from "vitest"
import { SHOT_DIR } from "./browser-fixtures.js"
import { expectNoSideways, expectTapTargets } from "./page-checks.js"

// What the dashboard's browser test asks of every page it visits, at a phone's and a desktop's width.

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js")
export const WIDTHS = [390, 1280] as const

interface Violation {
  readonly id: string
  readonly impact: string | null
  /** Where: each offending node's selector, to find it from the failure alone. */
  readonly nodes: ReadonlyArray<string>
}

/** axe-core's serious and critical findings on the page as it stands. */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<Violation>> => {
  // The dashboard's CSP allows no foreign script: the test's context bypasses it to inject axe.
  await page.addScriptTag({ path: AXE })
  const all = await page.evaluate<ReadonlyArray<Violation>>(
    "axe.run().then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))"
  )
  return all.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
}

/** The elements that reach past the screen's right edge, by tag and class: what a sideways scroll would be for. */
const overflowing = (page: Page) =>
  page.evaluate<ReadonlyArray<string>>(`[...document.querySelectorAll("body *")]
    .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((element) => element.tagName.toLowerCase() + (element.className ? "." + String(element.className).replace(/ /g, ".") : ""))
    .slice(0, 8)`)

/**
 * The words a line break cuts in two ("Redel / iver", "payment.expi / red"), each with where it stands.
 * A word is a run of letters and digits (joined by . ' _); its text range's line boxes are counted, and
 * more than one is a break inside it. Identifiers, secrets, URLs and payloads (code, pre, .wrap) may
 * break where they must, so they are left out; so is what is off screen or not rendered.
 */
const brokenWords = (page: Page) =>
  page.evaluate<ReadonlyArray<string>>(`(() => {
    const found = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement
      if (parent === null || parent.closest("code, pre, .wrap, .secret, script, style, .skip") !== null) continue
      for (const match of node.data.matchAll(/[\\p{L}\\p{N}]+(?:[.'’_][\\p{L}\\p{N}]+)*/gu)) {
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))
        if (tops.size > 1) found.push(match[0] + " in " + parent.tagName.toLowerCase() + (parent.className ? "." + String(parent.className).replace(/ /g, ".") : ""))
      }
    }
    return found.slice(0, 8)
  })()`)

/**
 * Keyboard alone: Tab from the top of the page reaches every link, button and field a person can see,
 * in turn (disabled ones aside; a radio group is one stop, its arrows choose), and the skip link comes first.
 */
const expectKeyboardReach = async (page: Page, name: string) => {
  const total = await page.evaluate<number>(`(() => {
    const all = [...document.querySelectorAll("a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]):not([type=radio]:not(:checked)), select:not([disabled]), textarea:not([disabled])")]
      .filter((element) => element.getClientRects().length > 0 || element.classList.contains("skip"))
    all.forEach((element, index) => element.setAttribute("data-reach", String(index)))
    return all.length
  })()`)
  await page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
  const reached = new Set<string>()
  let first: string | null = null
  for (let press = 0; press < total + 10 && reached.size < total; press++) {
    await page.keyboard.press("Tab")
    const at = await page.evaluate<string | null>("document.activeElement?.getAttribute('data-reach') ?? null")
    if (at !== null) reached.add(at)
    if (first === null) first = await page.evaluate<string | null>("document.activeElement?.className ?? null")
  }
  expect(reached.size, `${name}: elements reached with Tab`).toBe(total)
  if (await page.locator("a.skip").count() > 0) expect(first, `${name}: the first Tab lands on the skip link`).toBe("skip")
}

/**
 * At both widths: axe-core clean, nothing wider than the screen, every link and button a 44 px target,
 * and a screenshot kept (named `<room>-<name>-<width>.png`); then, at the desktop width it leaves the page at, everything reachable by Tab.
 */
export const checkPage = async (page: Page, name: string, room = "dashboard") => {
  mkdirSync(SHOT_DIR, { recursive: true })
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    // Kept first, so a failing page is there to look at.
    await page.screenshot({ path: join(SHOT_DIR, `${room}-${name}-${width}.png`), fullPage: true })
    expect(await seriousViolations(page), `${name} at ${width} px`).toEqual([])
    expect(await overflowing(page), `${name} at ${width} px: wider than the screen`).toEqual([])
    expect(await brokenWords(page), `${name} at ${width} px: words broken mid-word`).toEqual([])
    await expectNoSideways(page, width)
    await expectTapTargets(page)
  }
  await expectKeyboardReach(page, name)
}

/** The page's forms that change something (method post), by action, sign-out aside. */
export const changingForms = async (page: Page): Promise<ReadonlyArray<string>> => {
  const actions = await page.locator("form").evaluateAll((forms) =>
    forms.filter((form) => (form.getAttribute("method") ?? "get").toLowerCase() === "post").map((form) => form.getAttribute("action") ?? ""))
  return actions.filter((action) => !action.endsWith("/dashboard/logout"))
}

/**
 * A radio group as a person meets it, at both widths: a fieldset named by its legend, each radio named by
 * its label, a small control beside the first line of its words (not a full-width box above them), and
 * the arrow keys moving the choice.
 */
export const expectRadioGroup = async (page: Page, legend: string, labels: ReadonlyArray<string>) => {
  const group = page.getByRole("group", { name: legend })
  expect(await group.getByRole("radio").count(), `${legend}: radios`).toBe(labels.length)
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    for (const label of labels) {
      // No DOM lib in this project's types: the page's own objects are reached through `any`.
      const placed = await group.getByRole("radio", { name: label, exact: true }).evaluate((radio: any) => {
        const box = radio.getBoundingClientRect()
        const text = [...radio.labels[0].childNodes].find((node: any) => node.nodeType === 3 && node.data.trim() !== "")
        const range = radio.ownerDocument.createRange()
        range.selectNodeContents(text)
        const line = range.getClientRects()[0]
        return { width: box.width as number, before: box.right <= line.left + 0.5, level: box.top < line.bottom && box.bottom > line.top }
      })
      expect({ before: placed.before, level: placed.level }, `${legend} at ${width} px: "${label}" beside its words`).toEqual({ before: true, level: true })
      expect(placed.width, `${legend} at ${width} px: "${label}" radio width`).toBeLessThanOrEqual(32)
    }
  }
  const first = group.getByRole("radio", { name: labels[0]!, exact: true })
  await first.check()
  await first.focus()
  await page.keyboard.press("ArrowDown")
  expect(await group.getByRole("radio", { name: labels[1]!, exact: true }).isChecked(), `${legend}: ArrowDown chooses the next`).toBe(true)
  await page.keyboard.press("ArrowUp")
  expect(await first.isChecked(), `${legend}: ArrowUp chooses it back`).toBe(true)
}
