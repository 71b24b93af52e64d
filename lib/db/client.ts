import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client";
import { databaseUrl } from "./database-url";

const globalForPrisma = globalThis as unknown as { rollscopePrisma?: PrismaClient };

/** One Prisma client per server process (kept across dev-server hot reloads). */
export function getDb(): PrismaClient {
  globalForPrisma.rollscopePrisma ??= new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: databaseUrl() }) });
  return globalForPrisma.rollscopePrisma;
}
