import "server-only";
import { readdirSync } from "node:fs";
import path from "node:path";
import type { DatabaseDialect } from "./database-url";
import type { PrismaClient } from "./generated/client";

/** How far the database's schema is from the migrations this build ships. */
export interface MigrationStatus {
  /** Shipped migrations not applied to the database (yet). */
  pending: string[];
  /** Migrations whose last attempt failed and was not rolled back. */
  failed: string[];
}

/** The database as `prisma migrate deploy` left it (table _prisma_migrations), and whether it answers at all. */
export interface SchemaRepository {
  /** Runs the cheapest query there is; throws when the database cannot be opened or read. */
  ping(): Promise<void>;
  migrationStatus(): Promise<MigrationStatus>;
}

/** The migrations `npm start` applies: prisma/migrations/<name>/ (SQLite) or prisma/postgres/migrations/<name>/. */
function listShippedMigrations(dialect: DatabaseDialect): string[] {
  const dir = path.join(process.cwd(), "prisma", ...(dialect === "postgresql" ? ["postgres"] : []), "migrations");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

export function createSchemaRepository(db: PrismaClient, dialect: DatabaseDialect): SchemaRepository {
  return {
    async ping() {
      await db.$queryRaw`SELECT 1`;
    },

    async migrationStatus() {
      const rows = await db.$queryRaw<Array<{ migration_name: string; finished_at: unknown; rolled_back_at: unknown }>>`
        SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations`;
      const applied = new Set(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => r.migration_name));
      return {
        pending: listShippedMigrations(dialect).filter((name) => !applied.has(name)),
        failed: rows.filter((r) => r.finished_at === null && r.rolled_back_at === null).map((r) => r.migration_name),
      };
    },
  };
}
