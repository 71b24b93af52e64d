import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, toPostgresSchema } from "./postgres-schema";

describe("prisma/postgres/schema.prisma", () => {
  it("is the SQLite schema's models for PostgreSQL, regenerated after every model change (npx tsx scripts/postgres-schema.ts)", () => {
    expect(readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(toPostgresSchema(readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  it("names PostgreSQL and its own generated client", () => {
    const schema = toPostgresSchema(readFileSync(SQLITE_SCHEMA, "utf8"));
    expect(schema).toContain('provider = "postgresql"');
    expect(schema).toContain('output     = "../../lib/db/generated-postgres"');
    expect(schema).not.toContain('"sqlite"');
  });
});
