/**
 * The language of the built-in pages: Accept-Language negotiation (q-values, prefixes, `*`, malformed input),
 * `theme.locale` fixing it, `theme.locales` adding or amending a language, and bad locale configuration refused at
 * start-up as a configuration error. Through `Auth()` with real `Request`s.
 */
import { describe, expect, it } from 'vitest'
import { InvalidConfig } from '../../src/errors.js'
import { acceptedLanguages, choosePageLocale, resolvePageLocales } from '../../src/pages/locale.js'
import { builtInPageMessages } from '../../src/pages/messages.js'
import { en } from '../../src/pages/locales/en.js'
import type { PageMessages, Theme } from '../../src/types/index.js'
import { recordingLogger, send } from '../support/auth-harness.js'
import { pagesConfig } from './page-sites.js'

describe('acceptedLanguages', () => {
  it('orders ranges by q, keeping header order among equals', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr-CH', 'fr', 'en', 'de', '*'])
    expect(acceptedLanguages('ja;q=0.4, es;q=0.6,de')).toEqual(['de', 'es', 'ja'])
    expect(acceptedLanguages('de;q=0.5, fr;q=0.5')).toEqual(['de', 'fr'])
  })

  it('drops q=0 (not acceptable) and malformed entries, accepts spacing and an upper-case Q', () => {
    expect(acceptedLanguages('en;q=0, fr')).toEqual(['fr'])
    expect(acceptedLanguages('en;q=0.000, fr;q=0.001')).toEqual(['fr'])
    expect(acceptedLanguages('fr;q=2, de;q=1.5, es;q=0.5555, x y, ;q=1, ja ; Q = 0.3')).toEqual(['ja'])
    expect(acceptedLanguages('de;level=1, en')).toEqual(['en'])
    expect(acceptedLanguages('toolonglanguage, es')).toEqual(['es'])
    expect(acceptedLanguages('')).toEqual([])
    expect(acceptedLanguages(null)).toEqual([])
  })

  it('reads a bounded amount of a hostile header', () => {
    const huge = `${'xx;q=0.1,'.repeat(10_000)}fr`
    expect(acceptedLanguages(huge)).toHaveLength(32)
    expect(acceptedLanguages(huge)).not.toContain('fr')
  })
})

describe('choosePageLocale', () => {
  const locales = resolvePageLocales({})
  const pick = (header: string | null) => choosePageLocale(locales, header).lang

  it.each([
    ['fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', 'fr'],
    ['de-AT', 'de'],
    ['es-419,es;q=0.9', 'es'],
    ['ja', 'ja'],
    ['EN-gb', 'en'],
    ['pt-BR, es;q=0.5', 'es'],
    ['ja;q=0.4, fr;q=0.6', 'fr'],
    ['en;q=0, de', 'de'],
    ['zh-CN, ko', 'en'],
    ['*', 'en'],
    ['es;q=0.1, *', 'en'],
    ['sv, *;q=0.2, de;q=0.1', 'en'],
    ['', 'en'],
    [null, 'en'],
    ['%%%', 'en'],
  ])('Accept-Language %j → %s', (header, lang) => {
    expect(pick(header)).toBe(lang)
  })

  it('theme.locale fixes the language whatever the request asks for; a region tag falls back to its language', () => {
    expect(choosePageLocale(resolvePageLocales({ locale: 'de' }), 'fr, en').lang).toBe('de')
    expect(choosePageLocale(resolvePageLocales({ locale: 'fr-CA' }), 'ja').lang).toBe('fr')
    expect(choosePageLocale(resolvePageLocales({ locale: 'JA' }), null).lang).toBe('ja')
  })
})

/** Dutch, complete: how an app adds a language. */
const nl: PageMessages = {
  ...en,
  signInTitle: 'Inloggen',
  signInWith: 'Inloggen met {provider}',
  signOutTitle: 'Uitloggen',
  signOutQuestion: 'Weet je zeker dat je wilt uitloggen?',
  signOutButton: 'Uitloggen',
}

describe('theme.locales', () => {
  it('adds a language that Accept-Language then picks (with its region prefixes)', () => {
    const locales = resolvePageLocales({ locales: { nl } })
    expect(choosePageLocale(locales, 'nl-BE, fr;q=0.5')).toMatchObject({
      lang: 'nl',
      messages: { signInTitle: 'Inloggen' },
    })
    expect(choosePageLocale(locales, 'fr, nl;q=0.5').lang).toBe('fr')
  })

  it('amends a built-in language: the given texts replace its own, the others stay', () => {
    const locales = resolvePageLocales({
      locales: { fr: { signInTitle: 'Identification', signInErrors: { CredentialsSignin: 'Mot de passe erroné.' } } },
    })
    const { messages } = choosePageLocale(locales, 'fr')
    expect(messages.signInTitle).toBe('Identification')
    expect(messages.signInErrors.CredentialsSignin).toBe('Mot de passe erroné.')
    expect(messages.signInErrors.default).toBe(builtInPageMessages.fr?.signInErrors.default)
    expect(messages.signOutTitle).toBe(builtInPageMessages.fr?.signOutTitle)
    // The built-in table itself is untouched.
    expect(builtInPageMessages.fr?.signInTitle).toBe('Connexion')
  })

  it('a new regional variant starts from its language, a new language from English', () => {
    const locales = resolvePageLocales({
      locales: { 'fr-CA': { signOutTitle: 'Fermer la session' }, 'pt-BR': { signInTitle: 'Entrar' } },
    })
    const frCa = choosePageLocale(locales, 'fr-CA')
    expect(frCa.lang).toBe('fr-CA')
    expect(frCa.messages.signOutTitle).toBe('Fermer la session')
    expect(frCa.messages.signInTitle).toBe('Connexion')
    const ptBr = choosePageLocale(locales, 'pt-BR')
    expect(ptBr.messages.signInTitle).toBe('Entrar')
    expect(ptBr.messages.signOutTitle).toBe(en.signOutTitle)
    // fr-FR still gets the built-in French.
    expect(choosePageLocale(locales, 'fr-FR').messages.signOutTitle).toBe('Déconnexion')
  })

  it('theme.locale may name a language the app added', () => {
    expect(choosePageLocale(resolvePageLocales({ locale: 'nl', locales: { nl } }), 'de').lang).toBe('nl')
  })

  it.each<[string, unknown, RegExp]>([
    ['an unknown locale', { locale: 'xx' }, /theme\.locale "xx" is neither a built-in locale \(en, fr, de, es, ja\)/],
    ['a locale that is not a tag', { locale: 'fr_FR!' }, /theme\.locale "fr_FR!"/],
    ['a locale that is not a string', { locale: 42 }, /theme\.locale 42/],
    ['locales that are not an object', { locales: 'fr' }, /theme\.locales must be an object/],
    ['a key that is not a language tag', { locales: { 'not a tag': {} } }, /"not a tag" is not a language tag/],
    [
      'a misspelt text',
      { locales: { fr: { signInTitel: 'x' } } },
      /theme\.locales\.fr\.signInTitel is not a page text/,
    ],
    [
      'a misspelt error code',
      { locales: { fr: { signInErrors: { Nope: 'x' } } } },
      /signInErrors\.Nope is not a page text/,
    ],
    [
      'a text that is not a string',
      { locales: { de: { signInTitle: 1 } } },
      /theme\.locales\.de\.signInTitle must be a string/,
    ],
    [
      'a group that is not an object',
      { locales: { de: { errorPages: 'x' } } },
      /theme\.locales\.de\.errorPages must be an object/,
    ],
    [
      'an error page text that is not a string',
      { locales: { de: { errorPages: { AccessDenied: { title: ['x'] } } } } },
      /errorPages\.AccessDenied\.title must be a string/,
    ],
  ])('refuses %s with InvalidConfig naming the option', (_, theme, message) => {
    expect(() => resolvePageLocales(theme as Theme)).toThrow(InvalidConfig)
    expect(() => resolvePageLocales(theme as Theme)).toThrow(message)
  })
})

describe('through Auth()', () => {
  it('answers in the language the request accepts, says so in Content-Language, and varies on Accept-Language', async () => {
    const config = pagesConfig('all')
    const response = await send(config, '/auth/signin', { headers: { 'accept-language': 'de-CH, en;q=0.5' } })
    const html = await response.text()
    expect(html).toContain('<html lang="de"')
    expect(html).toContain('<h1>Anmelden</h1>')
    expect(html).toContain('Mit GitHub anmelden')
    expect(response.headers.get('content-language')).toBe('de')
    expect(response.headers.get('vary')).toMatch(/Accept-Language/)
  })

  it('with theme.locale: that language for everyone, and no Vary (the answer does not depend on the header)', async () => {
    const config = pagesConfig('all', { theme: { locale: 'ja' } })
    const response = await send(config, '/auth/signout', { headers: { 'accept-language': 'fr' } })
    const html = await response.text()
    expect(html).toContain('<html lang="ja"')
    expect(html).toContain('<h1>ログアウト</h1>')
    expect(response.headers.get('content-language')).toBe('ja')
    expect(response.headers.get('vary')).toBeNull()
  })

  it('an added language is served with its own tag in <html lang>', async () => {
    const config = pagesConfig('all', { theme: { locales: { nl } } })
    const html = await (await send(config, '/auth/signin', { headers: { 'accept-language': 'nl-NL' } })).text()
    expect(html).toContain('<html lang="nl"')
    expect(html).toContain('Inloggen met GitHub')
  })

  it('a bad theme.locale is a configuration error: the error page (500) in the reader’s language, the cause in the log', async () => {
    const recorded = recordingLogger()
    const config = pagesConfig('all', { theme: { locale: 'xx' }, logger: recorded.logger })
    const response = await send(config, '/auth/signin', { headers: { 'accept-language': 'es' } })
    expect(response.status).toBe(500)
    const html = await response.text()
    expect(html).toContain('<html lang="es"')
    expect(html).toContain('Error del servidor')
    expect(html).not.toContain('theme.locale')
    expect(recorded.errors.map((e) => e.message).join('\n')).toMatch(/theme\.locale "xx"/)
  })
})
