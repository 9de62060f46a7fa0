/**
 * The name, e-mail and image a sign-in keeps from what a provider's `profile()` or a credentials `authorize()`
 * answered. Each is sealed into every session cookie, so a string is capped in length. A `null` stays `null`: Auth.js
 * writes it into the token as it is, and `GET /session` answers it (`"image": null` for a user without a picture),
 * so a client that checks for `null` sees the same after a migration. Anything else is left out.
 */
import type { User } from '../../types/index.js'

const maxLengths = { name: 256, email: 256, image: 1024 } as const

export type ProfileFields = Pick<User, 'name' | 'email' | 'image'>

export function profileFieldsOf(user: User): ProfileFields {
  const fields: ProfileFields = {}
  for (const field of ['name', 'email', 'image'] as const) {
    const value: unknown = user[field]
    if (typeof value === 'string') fields[field] = value.slice(0, maxLengths[field])
    else if (value === null) fields[field] = null
  }
  return fields
}
