import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { wholeText } from "../response/whole-text.js"
import type { Html } from "./html.js"

/**
 * Every page the kit answers is sent here, and this takes only Html (the template's), never text:
 * no page can reach a browser that skipped the template's escaping. Each room adds its own headers.
 */
export const htmlResponse = (
  page: Html,
  options: { readonly status?: number; readonly headers?: Readonly<Record<string, string>> } = {}
): HttpServerResponse.HttpServerResponse => wholeText(page.markup, { ...options, contentType: "text/html; charset=utf-8" })
