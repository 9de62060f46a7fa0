/** `npm run providers:catalogue`: rewrites docs/providers.md from the provider modules. */
import { writeFileSync } from 'node:fs'
import { renderProviderCatalogue } from './provider-catalogue.js'

const target = new URL('../../docs/providers.md', import.meta.url)
writeFileSync(target, await renderProviderCatalogue())
console.log(`wrote ${target.pathname}`)
