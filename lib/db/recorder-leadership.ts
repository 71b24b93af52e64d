import "server-only";
import pg from "pg";
import type { LeadershipStatus } from "@/lib/contracts/readiness";
import { describeErrorSafely } from "@/lib/errors/known-secrets";
import { dialectOf, urlOf } from "./client";
import type { PrismaClient } from "./generated/client";

/**
 * Which replica records history. Exactly one process may write the recorder's rows and the scraped metrics; the
 * others watch the same clusters, serve pages, streams and actions, and keep what they observe until they lead.
 */
export interface RecorderLeadership {
  /** Whether this process leads now (may write history). */
  isLeader(): boolean;
  /** Whether this process is connected and knows another replica leads (so what it buffered is stored by that one). */
  anotherLeads(): boolean;
  /** Called with true when this process becomes the leader, false when it stops being one. */
  onChange(listener: (leader: boolean) => void): () => void;
  status(): LeadershipStatus;
  start(): void;
  /** Gives the leadership up (a graceful stop hands over at once rather than when the connection times out). */
  stop(): Promise<void>;
}

/** SQLite: one process owns the file, so it always leads. */
export function singleProcessLeadership(now: () => number = Date.now): RecorderLeadership {
  const since = new Date(now()).toISOString();
  return {
    isLeader: () => true,
    anotherLeads: () => false,
    onChange: (listener) => {
      listener(true);
      return () => undefined;
    },
    status: () => ({ mode: "single-process", role: "leader", since, lastError: null }),
    start: () => undefined,
    stop: async () => undefined,
  };
}

/** The advisory lock every Rollscope replica of one database competes for ("Rollscop" as a 64-bit key). */
const RECORDER_LOCK_KEY = "5939568307384393584";
const POLL_MS = 1_000;
const QUERY_TIMEOUT_MS = 5_000;

/**
 * PostgreSQL: the replica holding a session-level advisory lock leads. The lock lives on a dedicated connection:
 * when the process dies (even SIGKILL) the server ends its session and frees the lock, and a standby polling every
 * second takes it. A leader whose connection fails — or whose liveness query does not answer — stops leading at once
 * and competes again once it reconnects. Two replicas may briefly both write after a partition; the unique state
 * per Rollout and resourceVersion makes that harmless.
 */
class PostgresAdvisoryLeadership implements RecorderLeadership {
  private client: pg.Client | null = null;
  private leader = false;
  private othersLead = false;
  private since: number;
  private lastError: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = false;
  private readonly listeners = new Set<(leader: boolean) => void>();

  constructor(
    private readonly url: string,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
  }

  isLeader(): boolean {
    return this.leader;
  }

  anotherLeads(): boolean {
    return this.othersLead;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    if (this.leader) listener(true);
    return () => this.listeners.delete(listener);
  }

  status(): LeadershipStatus {
    const role = this.leader ? "leader" : this.client ? "standby" : "disconnected";
    return { mode: "postgres-advisory-lock", role, since: new Date(this.since).toISOString(), lastError: this.lastError };
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    void this.poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const client = this.client;
    this.client = null;
    this.setLeader(false);
    if (client) await client.end().catch(() => undefined);
  }

  /** One round: connect if needed, then either confirm the connection (leader) or try the lock (standby). */
  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      const client = this.client ?? (await this.connect());
      if (this.leader) {
        await client.query("SELECT 1");
      } else {
        const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${RECORDER_LOCK_KEY}) AS locked`);
        this.othersLead = !rows[0]?.locked;
        this.setLeader(rows[0]?.locked === true);
      }
      this.lastError = null;
    } catch (err) {
      this.lost(err);
    } finally {
      this.polling = false;
    }
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: "rollscope-recorder-leadership",
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      keepAlive: true,
    });
    // A connection that breaks between polls: the server has ended the session, and with it the lock.
    client.on("error", (err) => {
      if (this.client === client) this.lost(err);
    });
    await client.connect();
    if (this.stopped) {
      await client.end();
      throw new Error("stopped");
    }
    this.client = client;
    return client;
  }

  private lost(err: unknown): void {
    const client = this.client;
    this.client = null;
    this.othersLead = false;
    if (this.lastError === null || this.leader)
      console.error(
        `recorder leadership: the lock connection failed; ${this.leader ? "no longer recording" : "will retry"}`,
        describeErrorSafely(err),
      );
    this.lastError = describeErrorSafely(err);
    this.setLeader(false);
    void client?.end().catch(() => undefined);
  }

  private setLeader(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    this.since = this.now();
    if (leader) console.info("recorder leadership: this replica now records history (PostgreSQL advisory lock acquired)");
    for (const listener of this.listeners) listener(leader);
  }
}

/** The leadership for a database: the advisory lock on PostgreSQL, this process alone on SQLite. */
export function createRecorderLeadership(db: PrismaClient, now: () => number = Date.now): RecorderLeadership {
  const url = urlOf(db);
  return dialectOf(db) === "postgresql" && url ? new PostgresAdvisoryLeadership(url, now) : singleProcessLeadership(now);
}
