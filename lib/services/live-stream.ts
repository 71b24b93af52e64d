import "server-only";
import { canReadRolloutKey, scopeClusterState, type ReadScope } from "@/lib/auth/read-scope";
import type { AuthUser } from "@/lib/auth/types";
import { ALL_ROWS, NO_ROWS, type FocusedRollout, type LiveDelta, type RowScope, type StreamQuery } from "@/lib/contracts/stream";
import { ApiError } from "@/lib/errors/api-error";
import { createFleetEventStream } from "@/lib/live/sse-stream";
import { parseRolloutKey } from "@/lib/rollouts/rollout-ref";
import type { AppContext } from "@/lib/server/app-context";
import { listReadableClusterStates } from "./clusters";
import { READ_SCOPE_TTL_MS, resolveReadScope } from "./read-scope";
import { trackSseClient } from "@/lib/telemetry/observe";

/** The whole live view of one Rollout, as an open detail page needs it with no request of its own. */
function getFocusedRollout(app: AppContext, key: string, scope: ReadScope): FocusedRollout {
  const ref = parseRolloutKey(key) ?? { cluster: "", namespace: "", name: key };
  const { cluster, namespace, name } = ref;
  // One the user may not read looks exactly like one that does not exist.
  if (!canReadRolloutKey(scope, key)) return { ref, rollout: null, actionFingerprint: null };
  const watcher = app.fleet.cluster(cluster);
  const rollout = watcher?.rollout(namespace, name) ?? null;
  const actionFingerprint = rollout ? (watcher?.rolloutProjection(namespace, name)?.actionFingerprint ?? null) : null;
  return { ref, rollout, actionFingerprint };
}

/** A delta as this user may see it: Rollouts they may not read are left out, cluster states count only theirs. */
function readableDelta(app: AppContext, scope: ReadScope, delta: LiveDelta): LiveDelta | null {
  if (delta.type === "cluster")
    return { type: "cluster", cluster: scopeClusterState(scope, delta.cluster, app.deltaLog.namespaceCounts(delta.cluster.name)) };
  return canReadRolloutKey(scope, delta.type === "upsert" ? delta.rollout.key : delta.key) ? delta : null;
}

/** Whether a stream of `rows` holds the row of this Rollout change; undefined when it holds every row. */
function rowFilter(rows: RowScope): ((delta: Extract<LiveDelta, { type: "upsert" | "delete" }>) => boolean) | undefined {
  if (rows === ALL_ROWS) return undefined;
  if (rows === NO_ROWS) return () => false;
  const clusters = new Set(rows);
  return (delta) => clusters.has(delta.type === "upsert" ? delta.rollout.cluster : (parseRolloutKey(delta.key)?.cluster ?? ""));
}

/** Whose share of server.streams.perUser a stream counts against: the signed-in user, or without sign-in the client. */
function streamOwnerKey(user: AuthUser, clientAddress: string | null): string {
  return user.via === "none" ? `address:${clientAddress ?? "unknown"}` : `user:${user.via}:${user.name}`;
}

/**
 * The tab's `/api/stream` body: resumes after `since` (or Last-Event-ID) and follows the focused Rollouts and the rows
 * the tab holds, over what the user may read. The user's scope is asked for again as often as it is cached, so a
 * right granted or taken away reaches an open stream within about 30 s. Past server.streams (per user or in all) it
 * is refused with 429 before any work is done for it.
 */
export async function openLiveStream(
  app: AppContext,
  {
    query,
    lastEventId,
    signal,
    user,
    clientAddress,
  }: { query: StreamQuery; lastEventId: string | null; signal: AbortSignal; user: AuthUser; clientAddress: string | null },
): Promise<ReadableStream<Uint8Array>> {
  const slot = app.streamSlots.acquire(streamOwnerKey(user, clientAddress));
  if (!slot.granted) throw new ApiError("too_many_requests", slot.reason, slot.retryAfterSeconds);
  const resume = query.since ?? (lastEventId && /^\d+$/.test(lastEventId) ? lastEventId : null);
  let scope: ReadScope;
  try {
    scope = await resolveReadScope(app, user);
  } catch (err) {
    slot.release();
    throw err;
  }
  const refresh = setInterval(() => {
    resolveReadScope(app, user).then(
      (next) => (scope = next),
      () => undefined,
    );
  }, READ_SCOPE_TTL_MS);
  refresh.unref();
  const releaseClient = trackSseClient();
  return createFleetEventStream(app.deltaLog, {
    resumeFrom: resume === null ? null : Number(resume),
    signal: user.sessionId ? app.sessions.untilEnded(user.sessionId, signal) : signal,
    focus: new Set(query.focus),
    focusedView: (key) => getFocusedRollout(app, key, scope),
    // Everything stays everything (auth mode none): no per-delta work then.
    visibleDelta: scope.clusters === null ? undefined : (delta) => readableDelta(app, scope, delta),
    carriesRow: rowFilter(query.rows),
    snapshot: () => ({ clusters: listReadableClusterStates(app, scope), seq: app.deltaLog.lastSeq }),
    onClose: () => {
      clearInterval(refresh);
      releaseClient();
      slot.release();
    },
  });
}
