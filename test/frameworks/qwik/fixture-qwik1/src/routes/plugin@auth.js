// The app's Authchart set-up. The configuration module is imported inside the QwikAuth$ function, which Qwik's
// optimizer turns into a lazily loaded segment: components import this file in the browser too, and the database
// driver must not come along.
import { QwikAuth$ } from 'authchart/qwik'

export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(async (event) => (await import('../lib/auth-config.js')).configFor(event.env))
