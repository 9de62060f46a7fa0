/**
 * Which language a built-in page speaks: the configured `theme.locale`, else the best match for the request's
 * `Accept-Language` among the built-in locales and the app's `theme.locales`, else English. The table is built once
 * per configuration (and checked then: a bad locale is a configuration error at start-up, not a broken page later).
 */
import { InvalidConfig } from '../errors.js'
import type { PageMessages, PageMessagesInput } from '../types/page-messages.js'
import type { Theme } from '../types/theme.js'
import { builtInPageMessages, defaultPageLocale } from './messages.js'

/** One language of the pages: the tag written into `<html lang>` and `Content-Language`, and its texts. */
export interface PageLocale {
  lang: string
  messages: PageMessages
}

/** The languages the pages can speak, by lower-cased tag, and the one the configuration fixed, if any. */
export interface PageLocales {
  byTag: ReadonlyMap<string, PageLocale>
  fallback: PageLocale
  fixed?: PageLocale
}

/** A BCP 47 language tag in the shape HTTP and HTML use: a primary language subtag, then subtags. */
const languageTag = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/

/** Accept-Language beyond this is ignored: a real browser sends a few dozen characters. */
const maxHeaderLength = 1024
const maxRanges = 32

/** The tag, then each shorter prefix of it (`fr-ca-x` → `fr-ca` → `fr`): RFC 4647's lookup. */
function prefixes(tag: string): string[] {
  const parts = tag.toLowerCase().split('-')
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('-'))
}

function lookup(byTag: ReadonlyMap<string, PageLocale>, tag: string): PageLocale | undefined {
  for (const candidate of prefixes(tag)) {
    const found = byTag.get(candidate)
    if (found) return found
  }
  return undefined
}

/**
 * The language ranges of an Accept-Language value, most wanted first (`q` descending, header order among equals).
 * Ranges with `q=0` (not acceptable) and malformed entries are dropped; `*` is kept, it means "anything else".
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return []
  const ranges: Array<{ range: string; q: number; order: number }> = []
  const entries = header.slice(0, maxHeaderLength).split(',').slice(0, maxRanges)
  for (const [order, entry] of entries.entries()) {
    const match =
      /^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*[qQ]\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?))?\s*$/.exec(
        entry,
      )
    if (!match) continue
    const q = match[2] === undefined ? 1 : Number(match[2])
    if (q > 0) ranges.push({ range: match[1], q, order })
  }
  ranges.sort((a, b) => b.q - a.q || a.order - b.order)
  return ranges.map((r) => r.range)
}

/** The page language for a request: the configured one, else the best accepted one we have, else the fallback. */
export function choosePageLocale(locales: PageLocales, acceptLanguage: string | null | undefined): PageLocale {
  if (locales.fixed) return locales.fixed
  for (const range of acceptedLanguages(acceptLanguage)) {
    if (range === '*') return locales.fallback
    const found = lookup(locales.byTag, range)
    if (found) return found
  }
  return locales.fallback
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** One app-given text group laid over `base`, checked against its shape (no unknown key, strings where strings go). */
function mergeGroup(base: Record<string, unknown>, given: unknown, path: string): Record<string, unknown> {
  if (!isRecord(given)) throw new InvalidConfig(`${path} must be an object`)
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue
    if (!Object.prototype.hasOwnProperty.call(base, key)) throw new InvalidConfig(`${path}.${key} is not a page text`)
    const template = base[key]
    if (typeof template === 'string') {
      if (typeof value !== 'string') throw new InvalidConfig(`${path}.${key} must be a string`)
      merged[key] = value
    } else {
      merged[key] = mergeGroup(template as Record<string, unknown>, value, `${path}.${key}`)
    }
  }
  return merged
}

/** The app's texts for `tag` laid over the built-in locale of the same language (or English). */
function mergeMessages(tag: string, given: PageMessagesInput, base: PageMessages): PageMessages {
  // mergeGroup keeps the shape of `base`, a complete PageMessages, and accepts only strings where it has strings.
  return mergeGroup(
    base as unknown as Record<string, unknown>,
    given,
    `theme.locales.${tag}`,
  ) as unknown as PageMessages
}

const builtIn = new Map<string, PageLocale>(
  Object.entries(builtInPageMessages).map(([lang, messages]) => [lang.toLowerCase(), { lang, messages }]),
)

/** The built-in languages only: for pages rendered before (or without) a usable configuration. */
export const builtInPageLocales: PageLocales = {
  byTag: builtIn,
  fallback: builtIn.get(defaultPageLocale) as PageLocale,
}

/** Builds the language table of a configuration's `theme`, throwing `InvalidConfig` for a locale it cannot use. */
export function resolvePageLocales(theme: Theme | undefined): PageLocales {
  const byTag = new Map(builtIn)
  const given: unknown = theme?.locales
  if (given !== undefined) {
    if (!isRecord(given)) throw new InvalidConfig('theme.locales must be an object of page texts by language tag')
    for (const [tag, messages] of Object.entries(given)) {
      if (!languageTag.test(tag)) throw new InvalidConfig(`theme.locales: "${tag}" is not a language tag`)
      const base = lookup(byTag, tag)?.messages ?? builtInPageLocales.fallback.messages
      byTag.set(tag.toLowerCase(), { lang: tag, messages: mergeMessages(tag, messages as PageMessagesInput, base) })
    }
  }
  const fallback = byTag.get(defaultPageLocale) as PageLocale
  const locale: unknown = theme?.locale
  if (locale === undefined) return { byTag, fallback }
  const fixed = typeof locale === 'string' && languageTag.test(locale) ? lookup(byTag, locale) : undefined
  if (!fixed) {
    throw new InvalidConfig(
      `theme.locale ${JSON.stringify(locale)} is neither a built-in locale (${Object.keys(builtInPageMessages).join(', ')}) nor one of theme.locales`,
    )
  }
  return { byTag, fallback, fixed }
}
