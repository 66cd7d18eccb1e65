/**
 * One host's view of the rate-limit windows it has seen: the total the shared store last reported
 * (`shared`, which includes every host's flushed requests) and the requests counted here but not yet
 * sent to the store (`pending`). shared + pending is the host's best estimate of the window's count.
 */
export interface WindowView {
  readonly key: string
  readonly windowStart: number
  shared: number
  pending: number
  /** Whether the store has answered for this window yet: until it has, `shared` means nothing. */
  known: boolean
}

/** Requests taken out of a view to be written to the store. */
export interface Draft {
  readonly view: WindowView
  readonly requests: number
}

/**
 * Below this count a request is admitted on the local estimate and flushed later; from it on,
 * each request is counted in the store before it is answered, so the limit itself stays exact.
 * The margin (a fifth of the limit, at least 10) absorbs what other hosts have not flushed yet.
 */
export const exactFrom = (limit: number): number => limit - Math.max(10, Math.ceil(limit / 5))

export class LocalWindows {
  private readonly views = new Map<string, WindowView>()

  view(key: string, windowStart: number): WindowView {
    const id = `${windowStart}|${key}`
    let view = this.views.get(id)
    if (view === undefined) {
      view = { key, windowStart, shared: 0, pending: 0, known: false }
      this.views.set(id, view)
    }
    return view
  }

  /**
   * Takes the pending counts of every window from `windowStart` on, including windows with nothing
   * pending: writing zero still brings back the store's total, so each view learns what other hosts
   * counted. The views keep counting while the writes are under way.
   */
  drain(windowStart: number): ReadonlyArray<Draft> {
    const drafts: Array<Draft> = []
    for (const view of this.views.values()) {
      if (view.windowStart >= windowStart || view.pending > 0) {
        drafts.push({ view, requests: view.pending })
        view.pending = 0
      }
    }
    return drafts
  }

  /** Totals only grow, and writes may come back out of order: keep the largest seen. */
  static record(view: WindowView, total: number): void {
    view.shared = Math.max(view.shared, total)
    view.known = true
  }

  /** Forgets windows that closed before `windowStart` once nothing of theirs is left to write. */
  forgetBefore(windowStart: number): void {
    for (const [id, view] of this.views) {
      if (view.windowStart < windowStart && view.pending === 0) this.views.delete(id)
    }
  }
}
