// The augmentation as Auth.js documents it, on the public submodules `authchart/types` and `authchart/jwt`.
import type { DefaultSession } from 'authchart/types'

declare module 'authchart/types' {
  interface User {
    role?: string
    level?: number
  }
  interface Session {
    user: { role?: string } & DefaultSession['user']
    level?: number
    nickname?: string
  }
}

declare module 'authchart/jwt' {
  interface JWT {
    role?: string
    level?: number
    nickname?: string
  }
}
