import { signOut } from '../../lib/auth.server.js'

export const actions = { default: signOut }
