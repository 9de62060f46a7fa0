import express from 'express'
import { ExpressAuth, getSession } from '@auth/express'
import { authConfig, loggedErrors } from './auth.js'

const app = express()
app.set('trust proxy', true)

app.use('/api/auth/*', ExpressAuth(authConfig))

app.get('/login', (req, res) => {
  const error = typeof req.query.error === 'string' ? req.query.error : ''
  const code = typeof req.query.code === 'string' ? req.query.code : ''
  res.type('html').send(`<h1>Sign in</h1><p id="error">${error.replace(/\W/g, '')}</p><p id="code">${code.replace(/\W/g, '')}</p>`)
})

app.get('/logged-errors', (req, res) => {
  res.json(loggedErrors)
})

app.get('/me', async (req, res) => {
  res.json({ session: await getSession(req, authConfig) })
})

app.get('/protected', async (req, res) => {
  const session = await getSession(req, authConfig)
  if (!session?.user) return res.redirect('/login')
  res.type('text').send(`Hello ${session.user.name ?? 'someone'} (${session.user.role ?? 'no role'})`)
})

app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on ${process.env.PORT ?? 3000}`)
})
