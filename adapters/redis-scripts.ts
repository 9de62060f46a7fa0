/**
 * The Lua scripts behind the Redis adapter. Each one touches a single key, or keys that share one hash tag, so
 * each runs in one Cluster slot, as one step, on a single server and on a Cluster alike. What spans slots (a user
 * and its e-mail index, a session and its user's session list) is a sequence of these steps, ordered as
 * `adapters/redis.ts` explains. Scripts return status values rather than raising errors, so the adapter can say
 * what went wrong.
 */

/**
 * Claims an e-mail index for a while (`PX`): the claim becomes permanent only once the user's row carries the
 * address (`commitClaimScript`), so a writer that dies in between leaves nothing that outlives the lease.
 * KEYS: e-mail index. ARGV: claim value, lease ms.
 * Returns `{'ok'}`, or `{'taken', current value, remaining ms (-1: permanent)}`.
 */
export const claimEmailScript = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'ok'} end
local current = redis.call('GET', KEYS[1])
if not current then return {'taken', '', -2} end
return {'taken', current, redis.call('PTTL', KEYS[1])}`

/**
 * Takes over a permanent e-mail index that the caller found stale (its user no longer has the address), as a new
 * lease, but only if it still holds exactly what the caller judged. KEYS: e-mail index.
 * ARGV: the value judged stale, the new claim, lease ms. Returns 1 when taken over.
 */
export const takeOverClaimScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('PTTL', KEYS[1]) ~= -1 then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`

/**
 * Makes a claim permanent. If its lease ran out and nobody claimed the address meanwhile, claims it again for good.
 * KEYS: e-mail index. ARGV: claim value. Returns 1 when the index now holds the claim for good, 0 when another has it.
 */
export const commitClaimScript = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then redis.call('PERSIST', KEYS[1]) return 1 end
if not current then redis.call('SET', KEYS[1], ARGV[1]) return 1 end
return 0`

/** Deletes a key only if it still holds `ARGV[1]`. KEYS: the key. Returns 1 when deleted. */
export const deleteIfEqualScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`

/**
 * Deletes a record owned by a user (account, session, authenticator) only if it names that user, so a stale
 * entry in a user's list can never delete another user's record. KEYS: record. ARGV: user id. Returns 1 when deleted.
 */
export const deleteIfOwnedScript = `
local json = redis.call('GET', KEYS[1])
if not json then return 0 end
local ok, record = pcall(cjson.decode, json)
if not ok or type(record) ~= 'table' or record.userId ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`

/**
 * Lists a session under its user, first dropping listed sessions whose expiry has passed (they expire on their
 * own; their entries would otherwise pile up). KEYS: the user's session list (a sorted set scored by expiry).
 * ARGV: expiry epoch ms, session key, now epoch ms.
 */
export const listSessionScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return 1`

/**
 * Deletes a user's row, its lists and its second factors (they share the user's hash tag, so one slot). Returns the
 * row's JSON or nil. KEYS: user, accounts list, sessions list, authenticators list, factor list, recovery codes, then
 * each factor the list names.
 */
export const deleteUserRowScript = `
local json = redis.call('GET', KEYS[1])
redis.call('DEL', unpack(KEYS))
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
 * Stores a second factor and its recovery codes in one step, or nothing when the factor or one of the codes exists.
 * KEYS: the factor, the user's factor list, the user's recovery codes (a hash: code hash → factor id), all under the
 * user's hash tag. ARGV: the factor's JSON, its id, then the code hashes.
 * Returns 'ok', 'duplicate-factor' or 'duplicate-code'.
 */
export const createFactorScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'duplicate-factor' end
local seen = {}
for i = 3, #ARGV do
  if seen[ARGV[i]] or redis.call('HEXISTS', KEYS[3], ARGV[i]) == 1 then return 'duplicate-code' end
  seen[ARGV[i]] = true
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
for i = 3, #ARGV do redis.call('HSET', KEYS[3], ARGV[i], ARGV[2]) end
return 'ok'`

/**
 * Records an accepted TOTP step if it is above the factor's last used one, in one step, so that of concurrent
 * calls for one step only the first succeeds. KEYS: the factor. ARGV: user id, step. Returns 1 when recorded.
 */
export const useTotpStepScript = `
local json = redis.call('GET', KEYS[1])
if not json then return 0 end
local ok, factor = pcall(cjson.decode, json)
if not ok or type(factor) ~= 'table' or factor.userId ~= ARGV[1] or factor.type ~= 'totp' then return 0 end
local step = tonumber(ARGV[2])
local last = factor.lastUsedStep
if type(last) == 'number' and step <= last then return 0 end
factor.lastUsedStep = step
redis.call('SET', KEYS[1], cjson.encode(factor))
return 1`

/**
 * Deletes a factor of a user with its list entry and its recovery codes, in one step. KEYS: the factor, the user's
 * factor list, the user's recovery codes. ARGV: user id, factor id. Returns the factor's JSON or nil.
 */
export const deleteFactorScript = `
local json = redis.call('GET', KEYS[1])
if not json then return nil end
local ok, factor = pcall(cjson.decode, json)
if not ok or type(factor) ~= 'table' or factor.userId ~= ARGV[1] then return nil end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[2])
local codes = redis.call('HGETALL', KEYS[3])
for i = 1, #codes, 2 do
  if codes[i + 1] == ARGV[2] then redis.call('HDEL', KEYS[3], codes[i]) end
end
return json`
