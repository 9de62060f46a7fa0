// The Node server: Qwik City's node middleware on node:http, on HOST / PORT, origin from ORIGIN.
import { createServer } from 'node:http'
import { createQwikCity } from '@builder.io/qwik-city/middleware/node'
import qwikCityPlan from '@qwik-city-plan'
import { manifest } from '@qwik-client-manifest'
import render from './entry.ssr'

// Qwik City's own origin check for form posts is turned off here on purpose: the tests show that authchart/qwik
// refuses cross-site sign-in and sign-out posts by itself, as it must for apps that disable or loosen that check.
const { router, notFound, staticFile } = createQwikCity({ render, qwikCityPlan, manifest, checkOrigin: false })

const server = createServer((req, res) => {
  staticFile(req, res, () => {
    router(req, res, () => {
      notFound(req, res, () => {})
    })
  })
})
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1')
