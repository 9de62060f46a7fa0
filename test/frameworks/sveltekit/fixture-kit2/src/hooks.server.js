export { handle } from './lib/auth.server.js'
