import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl } from "./lib/db/database-url";

// Prisma 6.19 runs the schema engine as WebAssembly through this adapter, so no engine download is needed.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => new PrismaBetterSQLite3({ url: databaseUrl() }),
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
