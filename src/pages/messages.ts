/**
 * The built-in page texts by language, and the lookups that pick a message for an `error` query value (unknown values
 * get the generic text: the URL is user-controlled).
 */
import type { ErrorPageMessage, PageMessages, SignInErrorMessages } from '../types/page-messages.js'
import { de } from './locales/de.js'
import { en } from './locales/en.js'
import { es } from './locales/es.js'
import { fr } from './locales/fr.js'
import { ja } from './locales/ja.js'

/** The languages the built-in pages ship in, by language tag. English is the fallback. */
export const builtInPageMessages: Readonly<Record<string, PageMessages>> = Object.freeze({ en, fr, de, es, ja })

/** The default language, used when neither the configuration nor the request names one we have. */
export const defaultPageLocale = 'en'

function own<T extends object>(record: T, key: string): key is Extract<keyof T, string> {
  return Object.prototype.hasOwnProperty.call(record, key)
}

/** The message for an `error` value on the sign-in page. */
export function signInErrorMessage(messages: PageMessages, error: string): string {
  const known: SignInErrorMessages = messages.signInErrors
  return (own(known, error) ? known[error] : undefined) ?? known.default
}

/** Title and text for an `error` value on the error page. */
export function errorPageMessage(messages: PageMessages, error: string): ErrorPageMessage {
  const known = messages.errorPages
  return own(known, error) ? known[error] : known.default
}

/** `template` with each `{name}` replaced by `values[name]`; the values are HTML already (escaped by the caller). */
export function fillMessage(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (own(values, name) ? values[name] : whole))
}

/** A date and time in the page's language, in UTC (the server cannot know the reader's zone), said to be UTC. */
export function timeText(lang: string, ms: number): string {
  try {
    return `${new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms)} UTC`
  } catch {
    return new Date(ms).toISOString()
  }
}
