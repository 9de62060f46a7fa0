/**
 * Insert, update and delete one row and get the row back, on every engine. PostgreSQL and SQLite say
 * `RETURNING *`; MySQL has no RETURNING, so the row is read in the same transaction as the write, and a delete
 * first locks the row (`SELECT ... FOR UPDATE`) so that, of two concurrent deletes, only one sees it.
 */
import type { Kysely } from 'kysely'
import { supportsReturning, type SqlDialect } from './dialect.js'
import type { StoreRow } from './rows.js'

/**
 * The tables with their names and columns left open: names come from the schema mapping, columns are found at run
 * time, and rows are converted in rows.ts.
 */
export type StoreTables = Record<string, StoreRow>

/** A Kysely instance seen through `StoreTables`. */
export type Store = Kysely<StoreTables>

/** Column values that identify one row. */
export type RowMatch = Record<string, unknown>

/**
 * Inserts `row` and returns it as stored. `keys` name the columns that identify it (used to read it back on MySQL);
 * a key the row does not carry is an id the database assigned (AUTO_INCREMENT), read back as the insert id.
 */
export async function insertReturning(
  db: Store,
  dialect: SqlDialect,
  table: string,
  row: StoreRow,
  keys: string[],
): Promise<StoreRow> {
  if (supportsReturning(dialect)) {
    return db.insertInto(table).values(row).returningAll().executeTakeFirstOrThrow()
  }
  return db.transaction().execute(async (trx) => {
    const { insertId } = await trx.insertInto(table).values(row).executeTakeFirstOrThrow()
    const match = Object.fromEntries(keys.map((key) => [key, key in row ? row[key] : insertId]))
    return trx
      .selectFrom(table)
      .selectAll()
      .where((eb) => eb.and(match))
      .executeTakeFirstOrThrow()
  })
}

/** Updates the row matching `match` with `set`, and returns it as stored, or `undefined` when there is none. */
export async function updateReturning(
  db: Store,
  dialect: SqlDialect,
  table: string,
  set: StoreRow,
  match: RowMatch,
): Promise<StoreRow | undefined> {
  if (Object.keys(set).length === 0) {
    return db
      .selectFrom(table)
      .selectAll()
      .where((eb) => eb.and(match))
      .executeTakeFirst()
  }
  if (supportsReturning(dialect)) {
    return db
      .updateTable(table)
      .set(set)
      .where((eb) => eb.and(match))
      .returningAll()
      .executeTakeFirst()
  }
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable(table)
      .set(set)
      .where((eb) => eb.and(match))
      .execute()
    return trx
      .selectFrom(table)
      .selectAll()
      .where((eb) => eb.and(match))
      .executeTakeFirst()
  })
}

/**
 * Deletes the row matching `match` and returns it, or `undefined` when there was none. Atomic: under concurrent
 * calls for the same row exactly one gets it (this is what makes verification tokens single-use).
 */
export async function deleteReturning(
  db: Store,
  dialect: SqlDialect,
  table: string,
  match: RowMatch,
): Promise<StoreRow | undefined> {
  if (supportsReturning(dialect)) {
    return db
      .deleteFrom(table)
      .where((eb) => eb.and(match))
      .returningAll()
      .executeTakeFirst()
  }
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom(table)
      .selectAll()
      .where((eb) => eb.and(match))
      .forUpdate()
      .executeTakeFirst()
    if (row)
      await trx
        .deleteFrom(table)
        .where((eb) => eb.and(match))
        .execute()
    return row
  })
}
