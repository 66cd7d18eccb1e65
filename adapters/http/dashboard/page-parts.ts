import { html, type Html } from "../pages/html.js"

/** Pieces every dashboard page draws the same way. */

/** A refusal or a bad filter, read out at once by a screen reader. */
export const problemBox = (text: string | undefined) => (text === undefined ? "" : html`<div class="problem" role="alert">${text}</div>`)

/** What a form just did. */
export const noticeBox = (text: string | undefined) => (text === undefined ? "" : html`<div class="notice" role="status">${text}</div>`)

/** A labelled input of a GET filter form. */
export const filterField = (name: string, label: string, value: string, attributes: Html = html``) =>
  html`<div><label for="filter-${name}">${label}</label><input id="filter-${name}" name="${name}" value="${value}" ${attributes}></div>`

/** A row of a facts table: the label as the row's header. */
export const factRow = (label: string, value: Html | string) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>`

/**
 * A keyset list's way on: back to its first page once past it, and to the next while there is one.
 * The labels are the list's own ("Older entries" for a ledger).
 */
export const cursorPager = (first: string | undefined, next: string | undefined, labels = { first: "First page", next: "Next page" }) =>
  first === undefined && next === undefined
    ? ""
    : html`<nav class="pager" aria-label="Pages">${first === undefined ? html`<span></span>` : html`<a class="button" href="${first}">${labels.first}</a>`}${
      next === undefined ? "" : html`<a class="button" href="${next}">${labels.next}</a>`
    }</nav>`

/**
 * What a refused form's field is told, under the field: the API's words for that field, read at once
 * by a screen reader. Its input is marked with fieldState (same id), which points to it.
 */
export const fieldProblem = (id: string, messages: ReadonlyArray<string> | undefined) =>
  messages === undefined || messages.length === 0 ? "" : html`<p class="field-problem" id="${id}-problem" role="alert">${messages.join(" ")}</p>`

/** An input's attributes while fieldProblem says something under it: invalid, described by it. */
export const fieldState = (id: string, messages: ReadonlyArray<string> | undefined) =>
  messages === undefined || messages.length === 0 ? "" : html` aria-invalid="true" aria-describedby="${id}-problem"`
