import { mkdirSync } from "node:fs";
import path from "node:path";

/** The SQLite file the app and `prisma migrate deploy` share; DATABASE_URL overrides it. */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL ?? "file:./data/rollscope.db";
  if (url.startsWith("file:")) mkdirSync(path.dirname(path.resolve(url.slice("file:".length))), { recursive: true });
  return url;
}
