import "server-only";
import type { Prisma } from "./generated/client";

/**
 * A write a repository has prepared but not yet run (Prisma's lazy promise): await it on its own, or hand several
 * to `Repositories.transaction` to commit them together.
 */
export type PendingWrite = Prisma.PrismaPromise<unknown>;
