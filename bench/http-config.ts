/**
 * What the HTTP bench's servers (bench/http-server.ts) and its load generator (bench/http.bench.ts) must agree on:
 * the secret both libraries are configured with, and the session cookie name over plain HTTP (the encryption key is
 * derived from both, so cookies the load generator seals open at the servers).
 */
export const benchSecret = 'bench-secret-bench-secret-bench-secret-42'
export const sessionCookieName = 'authjs.session-token'
