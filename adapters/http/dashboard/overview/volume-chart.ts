import { Amount, ZERO } from "../../../../core/money/amount.js"
import type { DailyTotal } from "../../../../core/payments/payment-summary.js"
import { CHART_DAYS } from "../../../../core/merchants/merchant-overview.js"
import { type Instant, plusSeconds, toIsoString } from "../../../../core/shared/instant.js"
import { html } from "../../pages/html.js"
import type { MoneyText } from "../page-text.js"

// The overview's 30 days of takings, drawn on the server (no script, nothing loaded): one bar chart
// per currency (amounts of two currencies never add up), each an image named by its title and
// description, with the exact figures per day in a table behind it for anyone who cannot see bars.

const WIDTH = 600
const HEIGHT = 120
const SLOT = WIDTH / CHART_DAYS

/** A bar's height in pixels: the exact ratio taken in bigint to a tenth of a pixel, a day with takings never invisible. */
const barHeight = (volume: bigint, max: bigint) => (volume === 0n ? 0 : Math.max(2, Number((volume * BigInt(HEIGHT * 10)) / max) / 10))

const dayLabel = (since: Instant, day: number) => toIsoString(plusSeconds(since, day * 86_400)).slice(0, 10)

export const volumeChart = (money: MoneyText, since: Instant, currency: string, days: ReadonlyArray<DailyTotal>) => {
  const byDay = new Map(days.map((total) => [total.day, total]))
  const max = days.reduce((top, total) => (total.volume > top ? total.volume : top), 0n)
  const sum = days.reduce((all, total) => all + total.volume, 0n)
  const count = days.reduce((all, total) => all + total.count, 0)
  const id = `volume-${currency.toLowerCase().replace(/[^a-z0-9]/g, "")}`
  const bars = Array.from({ length: CHART_DAYS }, (_, day) => {
    const height = barHeight(byDay.get(day)?.volume ?? 0n, max)
    return height === 0 ? "" : html`<rect x="${day * SLOT + 2}" y="${HEIGHT - height}" width="${SLOT - 4}" height="${height}" rx="2"></rect>`
  })
  const rows = Array.from({ length: CHART_DAYS }, (_, day) => {
    const total = byDay.get(day)
    return html`<tr><th scope="row">${dayLabel(since, day)}</th><td class="amount">${money(total?.volume ?? ZERO, currency)}</td><td class="amount">${total?.count ?? 0}</td></tr>`
  })
  return html`<figure class="chart">
<figcaption><span class="figure">${money(Amount(sum), currency)}</span> in ${count} payment${count === 1 ? "" : "s"}</figcaption>
<svg role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT + 1}" preserveAspectRatio="none"><title id="${id}-title">${currency} taken per day, last ${CHART_DAYS} days</title><desc id="${id}-desc">From ${
    dayLabel(since, 0)
  } to ${dayLabel(since, CHART_DAYS - 1)}, highest day ${money(Amount(max), currency)}; the figures per day are in the table below.</desc><line x1="0" y1="${HEIGHT + 0.5}" x2="${WIDTH}" y2="${HEIGHT + 0.5}"></line>${bars}</svg>
<div class="axis muted" aria-hidden="true"><span>${dayLabel(since, 0)}</span><span>${dayLabel(since, CHART_DAYS - 1)}</span></div>
<details><summary>${currency} per day</summary><table><thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="amount">Taken</th><th scope="col" class="amount">Payments</th></tr></thead><tbody>${rows}</tbody></table></details>
</figure>`
}
