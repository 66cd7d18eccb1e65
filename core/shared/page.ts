/**
 * Page-numbered listing, as the admin merchant list and the subscription list answer it
 * (`meta: { current_page, per_page, total, last_page }`). Pages count from 1.
 */
export interface PageRequest {
  readonly page: number
  readonly perPage: number
}

/**
 * One slice of a listing and how many items the whole listing holds: what a repository answers for
 * a page request. Numbering the page is the use case's, so a storage port need not echo the request.
 */
export interface CountedItems<A> {
  readonly items: ReadonlyArray<A>
  /** Every item matching the filter, across all pages. */
  readonly total: number
}

/** A numbered page as a listing answers it: the request with what it found. */
export interface Page<A> extends PageRequest, CountedItems<A> {}

export const DEFAULT_PER_PAGE = 20
export const MAX_PER_PAGE = 100
/** Keeps the row offset, (page - 1) x per_page, far inside a safe integer. */
export const MAX_PAGE = 999_999_999

export const pageOffset = (request: PageRequest): number => (request.page - 1) * request.perPage

/** An empty list still has one (empty) page, so `last_page` is never 0. */
export const lastPage = (page: Page<unknown>): number => Math.max(1, Math.ceil(page.total / page.perPage))
