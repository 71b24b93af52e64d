import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl } from "./database-url";
import { PrismaClient } from "./generated/client";

/** A Prisma client on the configured database (DATABASE_URL); the app context holds the process's one. */
export function createDbClient(url = databaseUrl()): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}
