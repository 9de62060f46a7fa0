/**
 * The tables Auth.js's other SQL adapters work on, as their tools create them: `prisma migrate` for the Prisma schema
 * in the Auth.js docs, `drizzle-kit` for `@auth/drizzle-adapter`'s default tables, and the SQL the Auth.js docs give
 * for `@auth/pg-adapter`. Written out by hand here from those schemas' column lists (names, types, nullability,
 * keys): neither ORM's generator runs in these tests.
 */

export type Dialect = 'postgres' | 'mysql' | 'sqlite'
export type ForeignSchema = 'prisma' | 'drizzle' | 'pgAdapter'

// Prisma: String -> text / varchar(191) / TEXT, DateTime -> timestamp(3) / datetime(3) / DATETIME, every table but
// VerificationToken carries createdAt (database default) and updatedAt (set by the client only).
const prismaPostgres = `
create table "User" ("id" text not null, "name" text, "email" text not null, "emailVerified" timestamp(3), "image" text,
  "createdAt" timestamp(3) not null default current_timestamp, "updatedAt" timestamp(3) not null, constraint "User_pkey" primary key ("id"));
create table "Account" ("userId" text not null, "type" text not null, "provider" text not null, "providerAccountId" text not null,
  "refresh_token" text, "access_token" text, "expires_at" integer, "token_type" text, "scope" text, "id_token" text, "session_state" text,
  "createdAt" timestamp(3) not null default current_timestamp, "updatedAt" timestamp(3) not null,
  constraint "Account_pkey" primary key ("provider", "providerAccountId"));
create table "Session" ("sessionToken" text not null, "userId" text not null, "expires" timestamp(3) not null,
  "createdAt" timestamp(3) not null default current_timestamp, "updatedAt" timestamp(3) not null);
create table "VerificationToken" ("identifier" text not null, "token" text not null, "expires" timestamp(3) not null,
  constraint "VerificationToken_pkey" primary key ("identifier", "token"));
create table "Authenticator" ("credentialID" text not null, "userId" text not null, "providerAccountId" text not null,
  "credentialPublicKey" text not null, "counter" integer not null, "credentialDeviceType" text not null, "credentialBackedUp" boolean not null,
  "transports" text, constraint "Authenticator_pkey" primary key ("userId", "credentialID"));
create unique index "User_email_key" on "User" ("email");
create unique index "Session_sessionToken_key" on "Session" ("sessionToken");
create unique index "Authenticator_credentialID_key" on "Authenticator" ("credentialID");
alter table "Account" add constraint "Account_userId_fkey" foreign key ("userId") references "User" ("id") on delete cascade on update cascade;
alter table "Session" add constraint "Session_userId_fkey" foreign key ("userId") references "User" ("id") on delete cascade on update cascade;
alter table "Authenticator" add constraint "Authenticator_userId_fkey" foreign key ("userId") references "User" ("id") on delete cascade on update cascade;
`

const prismaMysql = `
create table \`User\` (\`id\` varchar(191) not null, \`name\` varchar(191) null, \`email\` varchar(191) not null, \`emailVerified\` datetime(3) null,
  \`image\` varchar(191) null, \`createdAt\` datetime(3) not null default current_timestamp(3), \`updatedAt\` datetime(3) not null,
  unique index \`User_email_key\`(\`email\`), primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_unicode_ci;
create table \`Account\` (\`userId\` varchar(191) not null, \`type\` varchar(191) not null, \`provider\` varchar(191) not null,
  \`providerAccountId\` varchar(191) not null, \`refresh_token\` text null, \`access_token\` text null, \`expires_at\` integer null,
  \`token_type\` varchar(191) null, \`scope\` varchar(191) null, \`id_token\` text null, \`session_state\` varchar(191) null,
  \`createdAt\` datetime(3) not null default current_timestamp(3), \`updatedAt\` datetime(3) not null,
  primary key (\`provider\`, \`providerAccountId\`)) default character set utf8mb4 collate utf8mb4_unicode_ci;
create table \`Session\` (\`sessionToken\` varchar(191) not null, \`userId\` varchar(191) not null, \`expires\` datetime(3) not null,
  \`createdAt\` datetime(3) not null default current_timestamp(3), \`updatedAt\` datetime(3) not null,
  unique index \`Session_sessionToken_key\`(\`sessionToken\`)) default character set utf8mb4 collate utf8mb4_unicode_ci;
create table \`VerificationToken\` (\`identifier\` varchar(191) not null, \`token\` varchar(191) not null, \`expires\` datetime(3) not null,
  primary key (\`identifier\`, \`token\`)) default character set utf8mb4 collate utf8mb4_unicode_ci;
create table \`Authenticator\` (\`credentialID\` varchar(191) not null, \`userId\` varchar(191) not null, \`providerAccountId\` varchar(191) not null,
  \`credentialPublicKey\` varchar(191) not null, \`counter\` integer not null, \`credentialDeviceType\` varchar(191) not null,
  \`credentialBackedUp\` boolean not null, \`transports\` varchar(191) null, unique index \`Authenticator_credentialID_key\`(\`credentialID\`),
  primary key (\`userId\`, \`credentialID\`)) default character set utf8mb4 collate utf8mb4_unicode_ci;
alter table \`Account\` add constraint \`Account_userId_fkey\` foreign key (\`userId\`) references \`User\`(\`id\`) on delete cascade on update cascade;
alter table \`Session\` add constraint \`Session_userId_fkey\` foreign key (\`userId\`) references \`User\`(\`id\`) on delete cascade on update cascade;
alter table \`Authenticator\` add constraint \`Authenticator_userId_fkey\` foreign key (\`userId\`) references \`User\`(\`id\`) on delete cascade on update cascade;
`

const prismaSqlite = `
create table "User" ("id" text not null primary key, "name" text, "email" text not null, "emailVerified" datetime, "image" text,
  "createdAt" datetime not null default current_timestamp, "updatedAt" datetime not null);
create table "Account" ("userId" text not null, "type" text not null, "provider" text not null, "providerAccountId" text not null,
  "refresh_token" text, "access_token" text, "expires_at" integer, "token_type" text, "scope" text, "id_token" text, "session_state" text,
  "createdAt" datetime not null default current_timestamp, "updatedAt" datetime not null,
  primary key ("provider", "providerAccountId"),
  constraint "Account_userId_fkey" foreign key ("userId") references "User" ("id") on delete cascade on update cascade);
create table "Session" ("sessionToken" text not null, "userId" text not null, "expires" datetime not null,
  "createdAt" datetime not null default current_timestamp, "updatedAt" datetime not null,
  constraint "Session_userId_fkey" foreign key ("userId") references "User" ("id") on delete cascade on update cascade);
create table "VerificationToken" ("identifier" text not null, "token" text not null, "expires" datetime not null,
  primary key ("identifier", "token"));
create table "Authenticator" ("credentialID" text not null, "userId" text not null, "providerAccountId" text not null,
  "credentialPublicKey" text not null, "counter" integer not null, "credentialDeviceType" text not null, "credentialBackedUp" boolean not null,
  "transports" text, primary key ("userId", "credentialID"),
  constraint "Authenticator_userId_fkey" foreign key ("userId") references "User" ("id") on delete cascade on update cascade);
create unique index "User_email_key" on "User" ("email");
create unique index "Session_sessionToken_key" on "Session" ("sessionToken");
create unique index "Authenticator_credentialID_key" on "Authenticator" ("credentialID");
`

// Drizzle: ids are text filled by the client (crypto.randomUUID()), no id on accounts and sessions, dates are
// `timestamp` (PostgreSQL, no zone), `timestamp` / `timestamp(3)` (MySQL) and integer milliseconds (SQLite).
const drizzlePostgres = `
create table "user" ("id" text primary key not null, "name" text, "email" text, "emailVerified" timestamp, "image" text,
  constraint "user_email_unique" unique ("email"));
create table "account" ("userId" text not null, "type" text not null, "provider" text not null, "providerAccountId" text not null,
  "refresh_token" text, "access_token" text, "expires_at" integer, "token_type" text, "scope" text, "id_token" text, "session_state" text,
  constraint "account_provider_providerAccountId_pk" primary key ("provider", "providerAccountId"));
create table "session" ("sessionToken" text primary key not null, "userId" text not null, "expires" timestamp not null);
create table "verificationToken" ("identifier" text not null, "token" text not null, "expires" timestamp not null,
  constraint "verificationToken_identifier_token_pk" primary key ("identifier", "token"));
create table "authenticator" ("credentialID" text not null, "userId" text not null, "providerAccountId" text not null,
  "credentialPublicKey" text not null, "counter" integer not null, "credentialDeviceType" text not null, "credentialBackedUp" boolean not null,
  "transports" text, constraint "authenticator_userId_credentialID_pk" primary key ("userId", "credentialID"),
  constraint "authenticator_credentialID_unique" unique ("credentialID"));
alter table "account" add constraint "account_userId_user_id_fk" foreign key ("userId") references "user" ("id") on delete cascade on update no action;
alter table "session" add constraint "session_userId_user_id_fk" foreign key ("userId") references "user" ("id") on delete cascade on update no action;
alter table "authenticator" add constraint "authenticator_userId_user_id_fk" foreign key ("userId") references "user" ("id") on delete cascade on update no action;
`

const drizzleMysql = `
create table \`user\` (\`id\` varchar(255) not null, \`name\` varchar(255), \`email\` varchar(255), \`emailVerified\` timestamp(3) null,
  \`image\` varchar(255), constraint \`user_id\` primary key (\`id\`), constraint \`user_email_unique\` unique (\`email\`));
create table \`account\` (\`userId\` varchar(255) not null, \`type\` varchar(255) not null, \`provider\` varchar(255) not null,
  \`providerAccountId\` varchar(255) not null, \`refresh_token\` varchar(255), \`access_token\` varchar(255), \`expires_at\` int,
  \`token_type\` varchar(255), \`scope\` varchar(255), \`id_token\` varchar(2048), \`session_state\` varchar(255),
  constraint \`account_provider_providerAccountId_pk\` primary key (\`provider\`, \`providerAccountId\`));
create table \`session\` (\`sessionToken\` varchar(255) not null, \`userId\` varchar(255) not null, \`expires\` timestamp not null,
  constraint \`session_sessionToken\` primary key (\`sessionToken\`));
create table \`verificationToken\` (\`identifier\` varchar(255) not null, \`token\` varchar(255) not null, \`expires\` timestamp not null,
  constraint \`verificationToken_identifier_token_pk\` primary key (\`identifier\`, \`token\`));
create table \`authenticator\` (\`credentialID\` varchar(255) not null, \`userId\` varchar(255) not null, \`providerAccountId\` varchar(255) not null,
  \`credentialPublicKey\` varchar(255) not null, \`counter\` int not null, \`credentialDeviceType\` varchar(255) not null,
  \`credentialBackedUp\` boolean not null, \`transports\` varchar(255),
  constraint \`authenticator_userId_credentialID_pk\` primary key (\`userId\`, \`credentialID\`),
  constraint \`authenticator_credentialID_unique\` unique (\`credentialID\`));
alter table \`account\` add constraint \`account_userId_user_id_fk\` foreign key (\`userId\`) references \`user\`(\`id\`) on delete cascade on update no action;
alter table \`session\` add constraint \`session_userId_user_id_fk\` foreign key (\`userId\`) references \`user\`(\`id\`) on delete cascade on update no action;
alter table \`authenticator\` add constraint \`authenticator_userId_user_id_fk\` foreign key (\`userId\`) references \`user\`(\`id\`) on delete cascade on update no action;
`

const drizzleSqlite = `
create table "user" ("id" text primary key not null, "name" text, "email" text, "emailVerified" integer, "image" text);
create unique index "user_email_unique" on "user" ("email");
create table "account" ("userId" text not null, "type" text not null, "provider" text not null, "providerAccountId" text not null,
  "refresh_token" text, "access_token" text, "expires_at" integer, "token_type" text, "scope" text, "id_token" text, "session_state" text,
  primary key ("provider", "providerAccountId"), foreign key ("userId") references "user" ("id") on update no action on delete cascade);
create table "session" ("sessionToken" text primary key not null, "userId" text not null, "expires" integer not null,
  foreign key ("userId") references "user" ("id") on update no action on delete cascade);
create table "verificationToken" ("identifier" text not null, "token" text not null, "expires" integer not null,
  primary key ("identifier", "token"));
create table "authenticator" ("credentialID" text not null, "userId" text not null, "providerAccountId" text not null,
  "credentialPublicKey" text not null, "counter" integer not null, "credentialDeviceType" text not null, "credentialBackedUp" integer not null,
  "transports" text, primary key ("userId", "credentialID"), foreign key ("userId") references "user" ("id") on update no action on delete cascade);
create unique index "authenticator_credentialID_unique" on "authenticator" ("credentialID");
`

// @auth/pg-adapter: SERIAL ids, no foreign keys and no unique constraints, no passkey table.
const pgAdapterPostgres = `
create table verification_token (identifier text not null, expires timestamptz not null, token text not null, primary key (identifier, token));
create table accounts (id serial, "userId" integer not null, type varchar(255) not null, provider varchar(255) not null,
  "providerAccountId" varchar(255) not null, refresh_token text, access_token text, expires_at bigint, id_token text, scope text,
  session_state text, token_type text, primary key (id));
create table sessions (id serial, "userId" integer not null, expires timestamptz not null, "sessionToken" varchar(255) not null, primary key (id));
create table users (id serial, name varchar(255), email varchar(255), "emailVerified" timestamptz, image text, primary key (id));
`

/**
 * What the conformance suite needs beyond `@auth/pg-adapter`'s schema, and what the docs advise adding: unique
 * e-mail addresses, provider accounts and session tokens (without them two sign-ins can race into duplicates), and a
 * passkey table.
 */
export const pgAdapterAdditions = `
create unique index users_email_key on users (email);
create unique index accounts_provider_key on accounts (provider, "providerAccountId");
create unique index sessions_token_key on sessions ("sessionToken");
create table authenticators ("credentialID" text primary key, "userId" integer not null references users (id) on delete cascade,
  "providerAccountId" text not null, "credentialPublicKey" text not null, counter integer not null,
  "credentialDeviceType" text not null, "credentialBackedUp" boolean not null, transports text);
`

/** The DDL of `schema` on `dialect`, or undefined where that adapter does not run (pg-adapter is PostgreSQL only). */
export function foreignSchemaDdl(schema: ForeignSchema, dialect: Dialect): string | undefined {
  const ddl: Record<ForeignSchema, Partial<Record<Dialect, string>>> = {
    prisma: { postgres: prismaPostgres, mysql: prismaMysql, sqlite: prismaSqlite },
    drizzle: { postgres: drizzlePostgres, mysql: drizzleMysql, sqlite: drizzleSqlite },
    pgAdapter: { postgres: pgAdapterPostgres },
  }
  return ddl[schema][dialect]
}
