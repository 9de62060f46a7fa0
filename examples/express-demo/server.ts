/**
 * Starts the demo (examples/express-demo/app.ts). It needs nothing installed or configured and reaches no outside
 * service; set AUTH_SECRET, PORT, HOST and DEMO_TRACES to taste.
 */
import { randomBytes } from 'node:crypto'
import { startDemo } from './app.js'

const port = Number(process.env.PORT ?? 3000)

if (!process.env.AUTH_SECRET) {
  // An embedded default so the demo starts anywhere; sessions do not survive a restart with it.
  process.env.AUTH_SECRET = randomBytes(32).toString('base64url')
  console.log('AUTH_SECRET is not set: using a random secret for this run (sessions end when the demo stops).')
}

// HOST=0.0.0.0 shows the demo to the network, development mail page included; the default is this machine only.
// The flows' OpenTelemetry spans, kept in this process and shown on /dev/flow: on by default (DEMO_TRACES=0 turns it
// off), and only where @opentelemetry/sdk-trace-base is installed.
const traces = process.env.DEMO_TRACES !== '0'
const demo = await startDemo({ port, hostname: process.env.HOST, log: (line) => console.log(line), traces })
console.log(`Authchart demo on ${demo.url} (listening on ${process.env.HOST ?? '127.0.0.1'} only; HOST changes it)`)
console.log(`  live flow view: ${demo.url}/dev/flow · development mail: ${demo.url}/dev/mail`)
console.log(`  development OpenID provider (in this process): ${demo.issuer}`)
