import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseDialect, databaseUrl, sqliteFileOf, type DatabaseDialect } from "./database-url";
import { PrismaClient } from "./generated/client";
import { PrismaClient as PostgresPrismaClient } from "./generated-postgres/client";
import { forgetQueryArguments } from "./forget-query-arguments";
import { createSqliteAdapter } from "./sqlite-adapter";
import { syncWriteAheadLog } from "./sqlite-checkpointer";

const databases = new WeakMap<PrismaClient, { dialect: DatabaseDialect; url: string }>();

/**
 * A Prisma client on the configured database (DATABASE_URL): SQLite through better-sqlite3, or PostgreSQL through
 * the pg adapter; the app context holds the process's one. Both clients are generated from the same models
 * (prisma/postgres/schema.prisma is a copy of prisma/schema.prisma), so the PostgreSQL one is typed as the other.
 */
export function createDbClient(url = databaseUrl()): PrismaClient {
  const dialect = databaseDialect(url);
  const client =
    dialect === "postgresql"
      ? (new PostgresPrismaClient({
          adapter: forgetQueryArguments(new PrismaPg({ connectionString: url, connectionTimeoutMillis: 5_000 })),
        }) as unknown as PrismaClient)
      : new PrismaClient({ adapter: forgetQueryArguments(createSqliteAdapter(url)) });
  databases.set(client, { dialect, url });
  return client;
}

/** Which database a client of {@link createDbClient} talks to (the raw SQL differs); SQLite for any other client. */
export function dialectOf(db: PrismaClient): DatabaseDialect {
  return databases.get(db)?.dialect ?? "sqlite";
}

/** The URL a client of {@link createDbClient} was opened with. */
export function urlOf(db: PrismaClient): string | undefined {
  return databases.get(db)?.url;
}

/**
 * What a write that must survive a power loss awaits after it committed (the audit log's): with SQLite, a sync of the
 * write-ahead log off the event loop (its commits do not sync: see createSqliteAdapter); PostgreSQL's commits are
 * durable already.
 */
export function durableCommit(db: PrismaClient): () => Promise<void> {
  const known = databases.get(db);
  const file = known?.dialect === "sqlite" ? sqliteFileOf(known.url) : null;
  return file === null ? async () => undefined : () => syncWriteAheadLog(file);
}
