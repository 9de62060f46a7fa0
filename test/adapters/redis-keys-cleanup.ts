/** Removes what a test run wrote to the shared Redis: every key under its own prefix. */
import type { Redis } from 'ioredis'

/** Deletes every key that starts with `prefix` (SCAN, never KEYS), returning how many went. */
export async function deleteKeysWithPrefix(client: Redis, prefix: string): Promise<number> {
  let cursor = '0'
  let deleted = 0
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (found.length > 0) deleted += await client.del(...found)
    cursor = next
  } while (cursor !== '0')
  return deleted
}
