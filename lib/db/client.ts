import "server-only";
import { databaseUrl } from "./database-url";
import { PrismaClient } from "./generated/client";
import { createSqliteAdapter } from "./sqlite-adapter";

/** A Prisma client on the configured database (DATABASE_URL); the app context holds the process's one. */
export function createDbClient(url = databaseUrl()): PrismaClient {
  return new PrismaClient({ adapter: createSqliteAdapter(url) });
}
