/**
 * What browser bundles get for `authchart/qwik/server` (the `browser` condition of the export map): the binding's
 * request hook, loader and actions run on the server only, and Authchart's core uses Node APIs that have no place
 * in a browser bundle. Nothing here is ever called; should it be, it says so instead of failing obscurely.
 */
function serverOnly(): never {
  throw new Error('authchart/qwik: the sign-in server code runs on the server only')
}

export const prepare = serverOnly
export const providersOf = serverOnly
export const answerAuthRequest = serverOnly
export const sessionOf = serverOnly
export const signIn = serverOnly
export const signOut = serverOnly
export const isOwnOriginPost = serverOnly
export const stepUpOf = serverOnly
