import NextAuth from 'next-auth'
import Credentials from 'next-auth/providers/credentials'

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
  providers: [
    Credentials({
      credentials: { username: { label: 'Name' }, password: { label: 'Password', type: 'password' } },
      authorize: async (credentials) => {
        if (credentials.password !== 'wonderland') return null
        const name = typeof credentials.username === 'string' ? credentials.username : 'Alice'
        return { id: 'alice', name, email: 'alice@example.test' }
      },
    }),
  ],
  callbacks: {
    authorized: ({ auth }) => Boolean(auth),
    jwt: ({ token, trigger, session }) => {
      if (trigger === 'update' && typeof session?.user?.name === 'string') token.name = session.user.name
      return token
    },
  },
})
