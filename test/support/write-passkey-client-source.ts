/** `npm run passkey:source`: rewrites src/pages/passkey-client-source.ts from src/webauthn-client.ts. */
import { writeFileSync } from 'node:fs'
import { renderPasskeyClientSource, sourceModule } from './passkey-client-source.js'

writeFileSync(sourceModule, renderPasskeyClientSource())
console.log(`wrote ${sourceModule.pathname}`)
