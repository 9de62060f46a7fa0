import type { PageMessagesInput } from './page-messages.js'

/** Styling and language of the built-in pages. */
export interface Theme {
  colorScheme?: 'auto' | 'dark' | 'light'
  logo?: string
  brandColor?: string
  buttonText?: string
  /**
   * Authchart: the language of the built-in pages, a language tag such as `fr` or `pt-BR` (one of the built-in
   * locales or of `locales`). Unset: chosen per request from `Accept-Language`, falling back to English.
   */
  locale?: string
  /**
   * Authchart: page texts by language tag, to add a language (`{ nl: { signInTitle: 'Inloggen', … } }`) or to
   * change some texts of a built-in one (`{ fr: { signInTitle: 'Identification' } }`).
   */
  locales?: Record<string, PageMessagesInput>
}
