// The same augmentation on the root module `authchart` (Session and User; the file imports from it, as Auth.js's
// docs do for their root module) and on `authchart/jwt` (JWT), which nothing in this project imports.
import type { DefaultSession } from 'authchart'

declare module 'authchart' {
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
