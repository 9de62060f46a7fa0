/**
 * The SQL adapter and its migration, for Kysely on PostgreSQL, MySQL/MariaDB or SQLite.
 * @module adapters/sql
 */
export { KyselyAdapter, type KyselyAdapterOptions } from './adapter.js'
export { schemas, type SchemaMapping } from './schema-mappings.js'
export { migrate, type MigrationReport } from './migrate.js'
export { KyselyAuth, tableNames, type AuthchartDatabase, type Database, type TableName } from './schema.js'
export type { SqlDialect } from './dialect.js'
export {
  sqlAuditSink,
  migrateAuditTable,
  verifyAuditChain,
  defaultAuditTable,
  type SqlAuditSink,
  type SqlAuditSinkOptions,
  type AuditChainReport,
} from './audit.js'
