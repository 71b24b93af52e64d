import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

/** PostgreSQL's catalog types the pg adapter of Prisma 6.19 cannot describe, read as text instead. */
const CATALOG_TEXT_TYPES = new Set([18 /* "char" */, 19 /* name */]);
const TEXT = 25;

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

function asText<T>(result: T): T {
  for (const field of (result as QueryResultLike)?.fields ?? []) if (CATALOG_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = TEXT;
  return result;
}

type QueryFn = (...args: unknown[]) => unknown;

function wrapQuery<T extends { query: QueryFn }>(target: T): T {
  const query = target.query.bind(target);
  target.query = ((...args: unknown[]) => {
    const out = query(...args);
    return out instanceof Promise ? out.then(asText) : out;
  }) as T["query"];
  return target;
}

/** A pool whose results name catalog columns (`name`, `"char"`) text. */
class CatalogTextPool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super(config);
    wrapQuery(this as unknown as { query: QueryFn });
    this.on("connect", (client) => void wrapQuery(client as unknown as { query: QueryFn }));
  }
}

/**
 * The adapter `prisma migrate` runs on for PostgreSQL. Prisma 6.19's schema engine reads PostgreSQL's catalog
 * through the adapter, whose type mapping rejects the catalog's `name` columns ("Column type 'name' could not be
 * deserialized", prisma/orm#27403); reading them as the text they are lets migrate deploy/status/diff work.
 * The app's own queries never select such columns and use the plain adapter.
 */
export function createPostgresMigrateAdapter(url: string): PrismaPg {
  return new PrismaPg(new CatalogTextPool({ connectionString: url }));
}
