/** What the soak's site and its virtual users agree on (a module of its own: importing the site would start it). */

/** The password every soak user signs in with: the soak tests outages, not passwords. */
export const soakPassword = 'soak-password'
