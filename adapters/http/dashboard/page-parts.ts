import { escapeHtml } from "../pages/house-style.js"

/** Pieces every dashboard page draws the same way. */

/** A refusal or a bad filter, read out at once by a screen reader. */
export const problemBox = (text: string | undefined) => (text === undefined ? "" : `<div class="problem" role="alert">${escapeHtml(text)}</div>`)

/** What a form just did. */
export const noticeBox = (text: string | undefined) => (text === undefined ? "" : `<div class="notice" role="status">${escapeHtml(text)}</div>`)

/** A labelled input of a GET filter form. */
export const filterField = (name: string, label: string, value: string, attributes = "") =>
  `<div><label for="filter-${name}">${label}</label><input id="filter-${name}" name="${name}" value="${escapeHtml(value)}" ${attributes}></div>`

/** A row of a facts table: the label as the row's header. */
export const factRow = (label: string, value: string) => `<tr><th scope="row">${label}</th><td>${value}</td></tr>`

/**
 * A keyset list's way on: back to its first page once past it, and to the next while there is one.
 * The labels are the list's own ("Older entries" for a ledger).
 */
export const cursorPager = (first: string | undefined, next: string | undefined, labels = { first: "First page", next: "Next page" }) =>
  first === undefined && next === undefined
    ? ""
    : `<nav class="pager" aria-label="Pages">${first === undefined ? "<span></span>" : `<a class="button" href="${escapeHtml(first)}">${labels.first}</a>`}${
      next === undefined ? "" : `<a class="button" href="${escapeHtml(next)}">${labels.next}</a>`
    }</nav>`
