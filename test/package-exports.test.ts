/** Every public subpath in package.json points at a module that exists in the sources (built to dist/ by `npm run build`). */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { import: string; types: string }>
}

function sourceOf(target: string): string {
  return target
    .replace(/^\.\/dist\//, './')
    .replace(/\.js$/, '.ts')
    .replace(/\.mjs$/, '.mts')
}

describe('package exports', () => {
  const entries = Object.entries(pkg.exports).filter(([, target]) => typeof target !== 'string')
  it.each(entries.filter(([key]) => !key.includes('*')))('%s has a source module', (_key, target) => {
    const { import: js } = target as { import: string }
    // Svelte components ship as source, copied into dist/ as they are (JavaScript next to the .svelte files).
    const copied = js.replace(/^\.\/dist\//, './')
    expect(
      existsSync(new URL(`../${sourceOf(js)}`, import.meta.url)) ||
        existsSync(new URL(`../${copied}`, import.meta.url)),
    ).toBe(true)
  })

  it('providers/* covers every built-in provider named in the docs', () => {
    for (const id of [
      'credentials',
      'oauth',
      'oidc',
      'github',
      'google',
      'microsoft-entra-id',
      'apple',
      'gitlab',
      'discord',
      'slack',
      'twitter',
      'facebook',
      'linkedin',
      'auth0',
      'okta',
      'keycloak',
      'cognito',
      'twitch',
      'spotify',
      'reddit',
      'dropbox',
      'zitadel',
      'authentik',
    ]) {
      expect(existsSync(new URL(`../src/providers/${id}.ts`, import.meta.url)), id).toBe(true)
    }
  })
})
