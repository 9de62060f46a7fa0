/**
 * Starts the demo app (examples/express-demo/app.ts). It needs nothing installed or configured; set AUTH_SECRET and
 * PORT to taste.
 */
import { randomBytes } from 'node:crypto'
import { createDemoApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)

if (!process.env.AUTH_SECRET) {
  // An embedded default so the demo starts anywhere; sessions do not survive a restart with it.
  process.env.AUTH_SECRET = randomBytes(32).toString('base64url')
  console.log('AUTH_SECRET is not set: using a random secret for this run (sessions end when the demo stops).')
}

const { app, authConfig } = createDemoApp({ log: (line) => console.log(line) })
export { authConfig }

app.listen(port, () => console.log(`Authchart demo on http://localhost:${port}`))
