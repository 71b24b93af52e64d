import "server-only";
import type { PrismaClient } from "./generated/client";

/** One signed-in browser, as table Session keeps it. */
export interface SessionRecord {
  id: string;
  user: string;
  groups: string[];
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt: Date;
}

/** The server-side sessions of mode oidc (table Session). */
export interface SessionRepository {
  create(record: Omit<SessionRecord, "revokedAt">): Promise<void>;
  find(id: string): Promise<SessionRecord | null>;
  /** Ends the session (a no-op for one already revoked). */
  revoke(id: string, at: Date): Promise<void>;
  touch(id: string, at: Date): Promise<void>;
  /** Deletes the sessions that expired or were revoked before `before`; returns how many. */
  deleteEnded(before: Date): Promise<number>;
}

function parseGroups(text: string): string[] {
  try {
    const groups: unknown = JSON.parse(text);
    return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === "string") : [];
  } catch {
    return [];
  }
}

/** `durable`: resolves once what was committed before survives a power loss (see durableCommit): a sign-out must. */
export function createSessionRepository(db: PrismaClient, durable: () => Promise<void>): SessionRepository {
  return {
    async create({ groups, ...record }) {
      await db.session.create({ data: { ...record, groups: JSON.stringify(groups) } });
    },

    async find(id) {
      const row = await db.session.findUnique({ where: { id } });
      return row ? { ...row, groups: parseGroups(row.groups) } : null;
    },

    async revoke(id, at) {
      await db.session.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
      await durable();
    },

    async touch(id, at) {
      await db.session.updateMany({ where: { id }, data: { lastSeenAt: at } });
    },

    async deleteEnded(before) {
      const { count } = await db.session.deleteMany({ where: { OR: [{ expiresAt: { lt: before } }, { revokedAt: { lt: before } }] } });
      return count;
    },
  };
}
