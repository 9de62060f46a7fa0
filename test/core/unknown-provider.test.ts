/**
 * A mistyped provider id logs Auth.js's InvalidProvider with the configured ids. On a sign-in address (POST or GET
 * /auth/signin/<id>) the page names them too, and never shows the sign-in page as if nothing were wrong; on a callback
 * address (GET or POST /auth/callback/<id>, the one registered at a provider) the answer is Auth.js's: the error page
 * with `error=Configuration`.
 */
import { describe, expect, it } from 'vitest'
import { InvalidProvider } from '../../src/errors.js'
import { builtInPageMessages } from '../../src/pages/messages.js'
import { CookieJar, csrfToken, recordingLogger, send } from '../support/auth-harness.js'
import { pagesConfig } from '../pages/page-sites.js'

const knownIds = ['github', 'credentials', 'email', 'passkey']

describe('an unknown provider id', () => {
  it.each([
    ['POST', '/auth/signin/githb'],
    ['GET', '/auth/signin/githb'],
  ])('%s %s: a 400 page listing the known ids, InvalidProvider logged with them', async (method, path) => {
    const recorded = recordingLogger()
    const config = pagesConfig('all', { logger: recorded.logger })
    const jar = new CookieJar()
    const form = method === 'POST' ? { csrfToken: await csrfToken(config, jar) } : undefined
    const response = await send(config, path, { method, jar, form })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain(builtInPageMessages.en.unknownProviderTitle)
    expect(html).toContain(`Known provider ids: ${knownIds.join(', ')}.`)
    expect(html).not.toContain('Server error')
    // Not the sign-in page shown as if the id were right.
    expect(html).not.toContain('<form')
    expect(recorded.errors).toHaveLength(1)
    expect(recorded.errors[0]).toBeInstanceOf(InvalidProvider)
    expect(recorded.errors[0]?.message).toContain(`known provider ids: ${knownIds.join(', ')}`)
  })

  it.each(['GET', 'POST'])(
    '%s /auth/callback/<unknown id>: the Configuration error page, as from Auth.js; InvalidProvider logged with the ids',
    async (method) => {
      const recorded = recordingLogger()
      const config = pagesConfig('all', { logger: recorded.logger })
      const jar = new CookieJar()
      const form = method === 'POST' ? { csrfToken: await csrfToken(config, jar) } : undefined
      const response = await send(config, '/auth/callback/githb', { method, jar, form })
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe('http://localhost:3000/auth/error?error=Configuration')
      expect(recorded.errors).toHaveLength(1)
      expect(recorded.errors[0]).toBeInstanceOf(InvalidProvider)
      expect(recorded.errors[0]?.message).toContain(`known provider ids: ${knownIds.join(', ')}`)
    },
  )

  it('the page is in the visitor language', async () => {
    const config = pagesConfig('all', { logger: recordingLogger().logger })
    const html = await (await send(config, '/auth/signin/githb', { headers: { 'accept-language': 'de' } })).text()
    expect(html).toContain(builtInPageMessages.de.unknownProviderTitle)
    expect(html).toContain(knownIds.join(', '))
  })

  it('a known id still shows the sign-in page on GET', async () => {
    const config = pagesConfig('all', { logger: recordingLogger().logger })
    const response = await send(config, '/auth/signin/github')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<form')
  })

  it('an app with its own error page gets the Configuration redirect, as from Auth.js', async () => {
    const recorded = recordingLogger()
    const config = pagesConfig('all', { logger: recorded.logger, pages: { error: '/oops' } })
    const response = await send(config, '/auth/callback/githb')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('http://localhost:3000/oops?error=Configuration')
    expect(recorded.errors[0]).toBeInstanceOf(InvalidProvider)
  })
})
