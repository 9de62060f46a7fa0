import { signIn } from '../../lib/auth.server.js'

export const actions = { default: signIn }
