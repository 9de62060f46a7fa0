/**
 * The HTML of the built-in pages, through `Auth()` with real `Request`s: the autocomplete token of every sign-in
 * field, the viewport and colour-scheme meta, and each page's texts in each built-in language (the "try again
 * shortly" page reached through a real Redis flow store whose server is not there). The translations themselves
 * are checked for shape: every text present, placeholders kept, and actually translated.
 */
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { RedisFlowStore } from '../../src/flow/stores/redis.js'
import { escapeHtml } from '../../src/pages/html.js'
import { builtInPageMessages } from '../../src/pages/messages.js'
import { renderSecondFactorPage } from '../../src/pages/second-factor-page.js'
import Credentials from '../../src/providers/credentials.js'
import Passkey from '../../src/providers/passkey.js'
import type { PageMessages } from '../../src/types/index.js'
import { CookieJar, csrfToken, send } from '../support/auth-harness.js'
import { pagesConfig } from './page-sites.js'

/** The attributes of the `<input>` named `name`. */
function inputNamed(html: string, name: string): Record<string, string> {
  const tag = [...html.matchAll(/<input\b([^>]*)\/?>/g)]
    .map((m) => m[1])
    .find((attrs) => attrs.includes(` name="${name}"`))
  if (tag === undefined) throw new Error(`no input named ${name}`)
  return Object.fromEntries([...tag.matchAll(/\s([\w-]+)(?:="([^"]*)")?/g)].map((m) => [m[1], m[2] ?? '']))
}

async function signInHtml(config = pagesConfig('all'), acceptLanguage = 'en'): Promise<string> {
  return (await send(config, '/auth/signin', { headers: { 'accept-language': acceptLanguage } })).text()
}

describe('provider style on the sign-in buttons', () => {
  function styled(style: Record<string, string>) {
    return pagesConfig('all', {
      providers: [
        {
          id: 'acme',
          name: 'Acme',
          type: 'oauth',
          clientId: 'c',
          clientSecret: 's',
          authorization: 'https://acme.example/authorize',
          token: 'https://acme.example/token',
          userinfo: 'https://acme.example/me',
          style,
        },
      ],
    })
  }

  it("marks the provider's button with its brandColor and puts its logo before the name", async () => {
    const html = await signInHtml(styled({ brandColor: '#ff5b24', logo: 'https://cdn.acme.example/logo.svg' }))
    expect(html).toContain(
      '<button type="submit" class="provider branded" style="--provider-brand: #ff5b24"><img src="https://cdn.acme.example/logo.svg" alt="" width="20" height="20" />Sign in with Acme</button>',
    )
  })

  it('takes the deprecated bg when there is no brandColor', async () => {
    expect(await signInHtml(styled({ bg: '#123456' }))).toContain('style="--provider-brand: #123456"')
  })

  it('leaves out a colour or logo it cannot put in the page safely', async () => {
    const html = await signInHtml(
      styled({ brandColor: 'red; background: url(https://evil.example/x)', logo: 'javascript:alert(1)' }),
    )
    expect(html).toContain('<button type="submit" class="provider">Sign in with Acme</button>')
    expect(html).not.toContain('evil.example')
    expect(html).not.toContain('javascript:')
    expect(await signInHtml(styled({ logo: '//evil.example/logo.png' }))).not.toContain('evil.example')
  })
})

describe('autocomplete', () => {
  it('the default sign-in page: username, current-password, email, and "username webauthn" on the passkey field', async () => {
    const html = await signInHtml()
    expect(inputNamed(html, 'username').autocomplete).toBe('username')
    expect(inputNamed(html, 'password').autocomplete).toBe('current-password')
    const emailInputs = [...html.matchAll(/<input\b[^>]* name="email"[^>]*>/g)].map((m) => m[0])
    expect(emailInputs).toHaveLength(2)
    expect(emailInputs[0]).toContain('autocomplete="email"')
    expect(emailInputs[0]).toContain('type="email"')
    expect(emailInputs[1]).toContain('autocomplete="username webauthn"')
    expect(emailInputs[1]).toContain('data-field')
    // The preset marks it required, but an empty field is how a discoverable passkey signs in.
    expect(emailInputs[1]).not.toContain(' required')
  })

  it('credentials fields: derived from type and name, and the app’s own value wins', async () => {
    const config = pagesConfig('credentials', {
      providers: [
        Credentials({
          credentials: {
            email: { label: 'E-mail', type: 'email' },
            password: { label: 'Password', type: 'password' },
            otp: { label: 'Code' },
            nickname: { label: 'Nickname', autocomplete: 'nickname' },
            note: { label: 'Note' },
          },
          authorize: () => null,
        }),
      ],
    })
    const html = await signInHtml(config)
    expect(inputNamed(html, 'email').autocomplete).toBe('username')
    expect(inputNamed(html, 'password').autocomplete).toBe('current-password')
    expect(inputNamed(html, 'otp').autocomplete).toBe('one-time-code')
    expect(inputNamed(html, 'nickname').autocomplete).toBe('nickname')
    expect(inputNamed(html, 'note')).not.toHaveProperty('autocomplete')
  })

  it('the one text field beside a password names the account, whatever it is called', async () => {
    const config = pagesConfig('credentials', {
      providers: [
        Credentials({
          credentials: { member: { label: 'Member number' }, secret: { label: 'PIN', type: 'password' } },
          authorize: () => null,
        }),
      ],
    })
    const html = await signInHtml(config)
    expect(inputNamed(html, 'member').autocomplete).toBe('username')
    expect(inputNamed(html, 'secret').autocomplete).toBe('current-password')
  })

  it('passkey fields: the first field the app left without a value carries "username webauthn", unless one has webauthn already', async () => {
    const config = pagesConfig('credentials', {
      providers: [
        // Without conditional UI: with it, the configuration must name the webauthn field itself.
        Passkey({
          enableConditionalUI: false,
          formFields: { handle: { label: 'Handle' }, email: { label: 'Mail', autocomplete: 'email' } },
        }),
      ],
    })
    const html = await signInHtml(config)
    expect(inputNamed(html, 'handle').autocomplete).toBe('username webauthn')
    expect(inputNamed(html, 'email').autocomplete).toBe('email')
    // A label the app chose is shown as written, in every language.
    expect(await signInHtml(config, 'de')).toContain('>Mail</label>')
    // The preset's email field keeps its "username webauthn"; an added field gets no second one.
    const added = pagesConfig('credentials', { providers: [Passkey({ formFields: { name: { label: 'Name' } } })] })
    const addedHtml = await signInHtml(added)
    expect(inputNamed(addedHtml, 'email').autocomplete).toBe('username webauthn')
    expect(inputNamed(addedHtml, 'name')).not.toHaveProperty('autocomplete')
  })
})

describe('the page shell', () => {
  it('has a viewport meta for phones and names the colour schemes it supports', async () => {
    const html = await signInHtml()
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1" />')
    expect(html).toContain('<meta name="color-scheme" content="light dark" />')
    expect(html).toContain('data-color-scheme="auto"')
    const dark = await signInHtml(pagesConfig('all', { theme: { colorScheme: 'dark' } }))
    expect(dark).toContain('<meta name="color-scheme" content="dark" />')
    expect(dark).toContain('data-color-scheme="dark"')
  })

  it('styles fields and buttons in the dark palette too', async () => {
    const html = await signInHtml()
    const dark = /html\[data-color-scheme="dark"\] \{([^}]*)\}/.exec(html)?.[1] ?? ''
    for (const variable of ['--field:', '--field-border:', '--neutral:', '--error-bg:', '--error-text:'])
      expect(dark).toContain(variable)
    expect(html).toMatch(/input \{[^}]*background: var\(--field\)/)
    expect(html).toMatch(/button\.provider \{[^}]*background: var\(--neutral\)/)
  })

  it('ignores a colorScheme that is not one of the three', async () => {
    const config = pagesConfig('all', { theme: { colorScheme: 'x" onload="alert(1)' as 'dark' } })
    const html = await signInHtml(config)
    expect(html).toContain('data-color-scheme="auto"')
    expect(html).not.toContain('onload')
  })
})

const locales: Array<[string, PageMessages]> = Object.entries(builtInPageMessages)

/** Every string of a messages object, by its path (`signInErrors.Signin`). */
function texts(messages: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value)
    else for (const [k, v] of texts(value as object, `${prefix}${key}.`)) out.set(k, v)
  }
  return out
}

describe('the built-in translations', () => {
  const english = texts(builtInPageMessages.en)

  it.each(locales)('%s has every text, none empty, and the placeholders where English has them', (_, messages) => {
    const own = texts(messages)
    expect([...own.keys()].sort()).toEqual([...english.keys()].sort())
    for (const [path, text] of own) {
      expect(text.trim(), path).not.toBe('')
      const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort()
      expect(placeholders(text), path).toEqual(placeholders(english.get(path) as string))
    }
  })

  it.each(locales.filter(([lang]) => lang !== 'en'))('%s is translated, not English', (_, messages) => {
    // A few words are the same in both languages (Spanish "Error"); the rest must differ.
    const same = [...texts(messages)].filter(([path, text]) => english.get(path) === text).map(([path]) => path)
    expect(same.filter((p) => !['emailPlaceholder', 'errorPages.default.title'].includes(p))).toEqual([])
  })
})

describe.each(locales)('the pages in %s', (lang, m) => {
  const headers = { 'accept-language': lang }
  const has = (html: string, text: string) => expect(html).toContain(escapeHtml(text))

  it('sign-in: title, buttons, e-mail field, passkey failure text', async () => {
    const html = await signInHtml(pagesConfig('all'), lang)
    expect(html).toContain(`<html lang="${lang}"`)
    expect(html).toContain(`<title>${escapeHtml(m.signInTitle)}</title>`)
    has(html, m.signInWith.replace('{provider}', 'GitHub'))
    has(html, m.signInWith.replace('{provider}', 'Passkey'))
    has(html, m.emailLabel)
    has(html, m.passkeyEmailLabel)
    // The e-mail link's and the passkey's fields sit in different sections: no two labels on the page read alike.
    const labels = [...html.matchAll(/<label[^>]*>([^<]*)<\/label>/g)].map((l) => l[1])
    expect(labels.length).toBeGreaterThan(1)
    expect(new Set(labels).size).toBe(labels.length)
    expect(html).toContain(`placeholder="${escapeHtml(m.emailPlaceholder)}"`)
    expect(html).toContain(`data-failed="${escapeHtml(m.passkeyFailed)}"`)
  })

  it('the challenge page: a passkey button, hidden until its script shows it, only for a user with a passkey', () => {
    const page = (passkey?: { basePath: string }) =>
      renderSecondFactorPage({
        actionUrl: 'https://site.test/auth/second-factor',
        csrfToken: 'token',
        locale: { lang, messages: m },
        ...(passkey ? { passkey } : {}),
      })
    const withPasskey = page({ basePath: 'https://site.test/auth' })
    const usePasskey = m.secondFactor?.usePasskey ?? ''
    const failed = m.secondFactor?.passkeyFailed ?? ''
    expect(usePasskey).not.toBe('')
    expect(withPasskey).toContain(
      `<div class="passkey" data-passkey-answer data-base="https://site.test/auth" data-failed="${escapeHtml(failed)}" hidden>`,
    )
    expect(withPasskey).toContain(`<button type="button" class="provider">${escapeHtml(usePasskey)}</button>`)
    expect(withPasskey).toContain('passkeySecondFactor({')
    // The codes answer without it: both forms are there, and no passkey markup or script without a passkey.
    const withoutPasskey = page()
    for (const html of [withPasskey, withoutPasskey]) {
      expect(html).toContain('name="factor" value="otp"')
      expect(html).toContain('name="factor" value="recovery"')
    }
    expect(withoutPasskey).not.toContain('data-passkey-answer')
    expect(withoutPasskey).not.toContain('<script>')
  })

  it.each(Object.keys(m.signInErrors))('sign-in with error=%s', async (error) => {
    const html = await (await send(pagesConfig('all'), `/auth/signin?error=${error}`, { headers })).text()
    has(html, m.signInErrors[error as keyof PageMessages['signInErrors']] ?? m.signInErrors.default)
  })

  it('sign-out, verify-request', async () => {
    const signOut = await (await send(pagesConfig('all'), '/auth/signout', { headers })).text()
    for (const text of [m.signOutTitle, m.signOutQuestion, m.signOutButton]) has(signOut, text)
    const verify = await (await send(pagesConfig('all'), '/auth/verify-request', { headers })).text()
    for (const text of [m.verifyRequestTitle, m.verifyRequestText, m.homeLink]) has(verify, text)
  })

  it.each(['Configuration', 'AccessDenied', 'Verification', 'Nonsense'])('error page for error=%s', async (error) => {
    const html = await (await send(pagesConfig('all'), `/auth/error?error=${error}`, { headers })).text()
    const expected = m.errorPages[error as keyof PageMessages['errorPages']] ?? m.errorPages.default
    has(html, expected.title)
    has(html, expected.text)
    has(html, error === 'Verification' ? m.signInLink : m.homeLink)
  })

  it('the confirmation page a sign-in link opens, with the address in bold', async () => {
    const path = '/auth/callback/email?token=t0ken&email=ada%40example.com'
    const response = await send(pagesConfig('all'), path, { headers })
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    const html = await response.text()
    has(html, m.emailConfirmTitle)
    has(html, m.emailConfirmButton)
    expect(html).toContain(escapeHtml(m.emailConfirmAs).replace('{email}', '<strong>ada@example.com</strong>'))
  })

  it('"try again shortly" while the flow store (Redis, not running on port 1) cannot be reached', async () => {
    const client = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    })
    // The store turns the refused connection into FlowStoreUnavailable; the client's own error events are expected.
    client.on('error', () => {})
    try {
      const config = pagesConfig('all', { flowStore: RedisFlowStore(client, { operationTimeoutMs: 500 }) })
      const jar = new CookieJar()
      const token = await csrfToken(config, jar)
      const response = await send(config, '/auth/signin/github', { jar, form: { csrfToken: token }, headers })
      expect(response.status).toBe(503)
      expect(response.headers.get('content-language')).toBe(lang)
      const html = await response.text()
      has(html, m.unavailableTitle)
      has(html, m.unavailableText)
    } finally {
      client.disconnect()
    }
  })
})
