// Type augmentation, as the Auth.js docs show it.
import type { DefaultSession } from '@auth/core/types'

declare module '@auth/core/types' {
  interface User {
    role?: string
  }
  interface Session {
    user: { role?: string } & DefaultSession['user']
    provider?: string
    nickname?: string
  }
}

declare module '@auth/core/jwt' {
  interface JWT {
    role?: string
    provider?: string
    nickname?: string
  }
}
