import type { TestProject } from "vitest/node";
import { startPostgres, type PostgresServer } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** `postgresql://postgres@127.0.0.1:<port>` of the suite's throw-away server (append `/<database>`). */
    postgresUrl: string;
  }
}

let server: PostgresServer | undefined;

/** One throw-away PostgreSQL server for the `integration-postgres` project; each test file makes its own database. */
export async function setup(project: TestProject): Promise<void> {
  server = await startPostgres();
  project.provide("postgresUrl", server.url("").replace(/\/$/, ""));
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
