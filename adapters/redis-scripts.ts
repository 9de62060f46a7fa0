/**
 * The Lua scripts behind the Redis adapter's multi-key writes. Redis runs a script as one step, so a record and
 * its indexes (e-mail → user, user → sessions/accounts/authenticators) never disagree, whatever runs beside it.
 * Scripts return status strings rather than raising errors, so the adapter can say what went wrong.
 *
 * Some keys are derived inside the scripts (a user's index sets from a prefix), so the adapter suits a single
 * Redis server or a replicated primary, not Redis Cluster.
 */

/** KEYS: user, email index (or none). ARGV: user JSON, user id. */
export const createUserScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'duplicate-id' end
if KEYS[2] and not redis.call('SET', KEYS[2], ARGV[2], 'NX') then return 'duplicate-email' end
redis.call('SET', KEYS[1], ARGV[1])
return 'ok'`

/**
 * Compare-and-set of a user, moving its e-mail index when the address changes.
 * KEYS: user, old email index ('' for none), new email index ('' for none).
 * ARGV: the JSON read before, the new JSON, user id.
 */
export const updateUserScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'conflict' end
if KEYS[2] ~= KEYS[3] then
  if KEYS[3] ~= '' and not redis.call('SET', KEYS[3], ARGV[3], 'NX') then return 'duplicate-email' end
  if KEYS[2] ~= '' and redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
end
redis.call('SET', KEYS[1], ARGV[2])
return 'ok'`

/**
 * Deletes a user with everything listed in its index sets and its e-mail index. Returns the user's JSON or nil.
 * KEYS: user, accounts set, sessions set, authenticators set. ARGV: email index prefix, user id.
 */
export const deleteUserScript = `
local json = redis.call('GET', KEYS[1])
if not json then return false end
for i = 2, 4 do
  for _, key in ipairs(redis.call('SMEMBERS', KEYS[i])) do redis.call('DEL', key) end
  redis.call('DEL', KEYS[i])
end
local email = cjson.decode(json).email
if type(email) == 'string' and email ~= '' and redis.call('GET', ARGV[1] .. email) == ARGV[2] then
  redis.call('DEL', ARGV[1] .. email)
end
redis.call('DEL', KEYS[1])
return json`

/**
 * Creates a record owned by a user (account, session, authenticator) unless its key is taken, and lists it in the
 * user's set. With \`prune\`, first drops set members whose record has expired (sessions expire on their own).
 * KEYS: record, owner set. ARGV: JSON, PXAT epoch ms ('' for no expiry), 'prune' or ''.
 */
export const createOwnedScript = `
local created
if ARGV[2] == '' then created = redis.call('SET', KEYS[1], ARGV[1], 'NX')
else created = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PXAT', ARGV[2]) end
if not created then return 'duplicate' end
if ARGV[3] == 'prune' then
  for _, key in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    if redis.call('EXISTS', key) == 0 then redis.call('SREM', KEYS[2], key) end
  end
end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('SADD', KEYS[2], KEYS[1]) end
return 'ok'`

/**
 * Deletes a record owned by a user and removes it from the user's set. Returns its JSON or nil.
 * KEYS: record. ARGV: owner set prefix (the user id is read from the record).
 */
export const deleteOwnedScript = `
local json = redis.call('GET', KEYS[1])
if not json then return false end
redis.call('DEL', KEYS[1])
local userId = cjson.decode(json).userId
if type(userId) == 'string' then redis.call('SREM', ARGV[1] .. userId, KEYS[1]) end
return json`

/**
 * Replaces a record only if it still holds what the caller read, so an update never resurrects a record deleted
 * meanwhile. KEYS: record. ARGV: the JSON read before, the new JSON, PXAT epoch ms ('' keeps the current TTL).
 * Returns 1 when replaced, 0 otherwise.
 */
export const compareAndSetScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] == '' then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
else redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3]) end
return 1`

/**
 * A session and its user in one round trip (the session check of every page view). Returns {session, user}
 * JSON, or nil when either is missing. KEYS: session. ARGV: user key prefix.
 */
export const sessionAndUserScript = `
local session = redis.call('GET', KEYS[1])
if not session then return false end
local user = redis.call('GET', ARGV[1] .. cjson.decode(session).userId)
if not user then return false end
return { session, user }`
