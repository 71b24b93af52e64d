import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseDialect, databaseUrl } from "./lib/db/database-url";
import { createPostgresMigrateAdapter } from "./lib/db/postgres-migrate-adapter";

// Prisma 6.19 runs the schema engine as WebAssembly through a driver adapter, so no engine download is needed.
// DATABASE_URL picks the database: SQLite (prisma/) or PostgreSQL (prisma/postgres/, generated from the same models).
const url = databaseUrl();
const postgres = databaseDialect(url) === "postgresql";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => (postgres ? createPostgresMigrateAdapter(url) : new PrismaBetterSQLite3({ url })),
  schema: postgres ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: postgres ? "prisma/postgres/migrations" : "prisma/migrations" },
});
