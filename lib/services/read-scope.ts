import "server-only";
import { reviewAccess, type AccessAttributes } from "@/lib/auth/access-review";
import { mayReadAuditLog } from "@/lib/auth/audit-readers";
import { impersonableGroups } from "@/lib/auth/impersonation";
import { kubernetesGroups } from "@/lib/auth/service-account";
import { canReadNamespace, createReadScope, FULL_READ_SCOPE, type ClusterReadScope, type ReadScope } from "@/lib/auth/read-scope";
import { mappedReadScope, usesImpersonation } from "@/lib/auth/role-mapping";
import type { AuthUser } from "@/lib/auth/types";
import { ApiError } from "@/lib/errors/api-error";
import { messageOf } from "@/lib/errors/message-of";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { AppContext } from "@/lib/server/app-context";
import { rolloutNotFound } from "./rollout-lookup";

/** How long a user's permissions on a cluster are trusted before the cluster is asked again. */
export const READ_SCOPE_TTL_MS = 30_000;
/** A failed check is retried sooner: the cluster's Rollouts stay hidden only while it keeps failing. */
const FAILED_SCOPE_TTL_MS = 5_000;
/** A request waits this long for a slow cluster; then that cluster alone is hidden, and the answer is kept for later. */
const WAIT_MS = 5_000;
const MAX_ENTRIES = 2_000;
const REVIEWS_AT_ONCE = 8;

interface Decided {
  readonly scope: ClusterReadScope;
  /** The namespaces asked about one by one (null: the answer covers every namespace, present and future). */
  readonly checked: ReadonlySet<string> | null;
}

interface Entry {
  readonly at: number;
  ttlMs: number;
  readonly decided: Promise<Decided>;
  settled?: Decided;
}

const cachesByApp = new WeakMap<AppContext, Map<string, Entry>>();

function cacheOf(app: AppContext): Map<string, Entry> {
  let cache = cachesByApp.get(app);
  if (!cache) cachesByApp.set(app, (cache = new Map()));
  return cache;
}

const listRollouts = (namespace: string): AccessAttributes => ({ verb: "list", group: "argoproj.io", resource: "rollouts", namespace });

/** Runs `check` over the items, a few at a time, so a cluster with many namespaces is not flooded with reviews. */
async function everyAllowed(items: readonly string[], check: (item: string) => Promise<boolean>): Promise<string[]> {
  const allowed: string[] = [];
  for (let i = 0; i < items.length; i += REVIEWS_AT_ONCE) {
    const batch = items.slice(i, i + REVIEWS_AT_ONCE);
    const answers = await Promise.all(batch.map(check));
    allowed.push(...batch.filter((_, j) => answers[j]));
  }
  return allowed;
}

/**
 * Asks the cluster (SubjectAccessReview, as `kubectl auth can-i list rollouts.argoproj.io --as`) whether the user may
 * list Rollouts in all namespaces; if not, in each namespace that holds Rollouts and was not asked about before.
 */
async function reviewClusterScope(
  app: AppContext,
  cluster: string,
  user: AuthUser,
  namespaces: readonly string[],
  known: Decided | null,
): Promise<Decided> {
  const kubeConfig = app.fleet.clusterOrThrow(cluster).clients.kubeConfig;
  // The groups the API server would give the user (a service account's included), never a privileged one.
  const groups = kubernetesGroups(user.name, impersonableGroups(user.groups, app.config.authorization.privilegedGroups));
  const subject = { kind: "user" as const, user: user.name, groups };
  const may = async (namespace: string) => (await reviewAccess(cluster, kubeConfig, subject, listRollouts(namespace))).allowed;
  if (!known && (await may(""))) return { scope: { kind: "all" }, checked: null };
  const before = known?.scope.kind === "namespaces" ? known.scope.namespaces : new Set<string>();
  const checked = new Set(known?.checked ?? []);
  const fresh = await everyAllowed(
    namespaces.filter((ns) => !checked.has(ns)),
    may,
  );
  for (const ns of namespaces) checked.add(ns);
  const visible = new Set([...before, ...fresh]);
  return { scope: visible.size > 0 ? { kind: "namespaces", namespaces: visible } : { kind: "none", error: null }, checked };
}

async function decideClusterScope(
  app: AppContext,
  cluster: string,
  user: AuthUser,
  namespaces: readonly string[],
  known: Decided | null,
): Promise<Decided> {
  if (!usesImpersonation(app.config.authorization, cluster)) {
    return {
      scope: mappedReadScope(kubernetesGroups(user.name, user.groups), cluster, app.config.authorization.roleMappings),
      checked: null,
    };
  }
  return reviewClusterScope(app, cluster, user, namespaces, known);
}

function remember(app: AppContext, key: string, at: number, decide: () => Promise<Decided>): Entry {
  const cache = cacheOf(app);
  const decided = decide().catch((err: unknown): Decided => ({
    scope: { kind: "none", error: `Your permissions on this cluster could not be checked: ${messageOf(err)}` },
    checked: null,
  }));
  const entry: Entry = { at, ttlMs: READ_SCOPE_TTL_MS, decided };
  void decided.then((settled) => {
    entry.settled = settled;
    // A failure is kept briefly: long enough not to ask an unreachable cluster on every request.
    if (settled.scope.kind === "none" && settled.scope.error !== null) entry.ttlMs = FAILED_SCOPE_TTL_MS;
  });
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return entry;
}

function withDeadline(decided: Promise<Decided>, cluster: string): Promise<Decided> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Decided>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          scope: {
            kind: "none",
            error: `Your permissions on cluster ${cluster} are still being checked (no answer within ${WAIT_MS / 1000} s)`,
          },
          checked: null,
        }),
      WAIT_MS,
    );
  });
  return Promise.race([decided, late]).finally(() => clearTimeout(timer));
}

/** One user's scope on one cluster: cached for 30 s; namespaces that gained their first Rollout since are asked about at once. */
async function clusterScopeOf(app: AppContext, cluster: string, user: AuthUser, alsoNamespace?: string): Promise<ClusterReadScope> {
  const namespaces = [...app.deltaLog.namespaceCounts(cluster).keys()];
  // A Rollout asked for by name (its history outlives it) may sit in a namespace that no longer holds any.
  if (alsoNamespace !== undefined && !namespaces.includes(alsoNamespace)) namespaces.push(alsoNamespace);
  const key = JSON.stringify([cluster, user.name, [...user.groups].sort()]);
  const now = app.now();
  let entry = cacheOf(app).get(key);
  if (!entry || now - entry.at >= entry.ttlMs) {
    entry = remember(app, key, now, () => decideClusterScope(app, cluster, user, namespaces, null));
  } else if (entry.settled?.checked && namespaces.some((ns) => !entry!.settled!.checked!.has(ns))) {
    const known = entry.settled;
    entry = remember(app, key, entry.at, () => decideClusterScope(app, cluster, user, namespaces, known));
  }
  return (await withDeadline(entry.decided, cluster)).scope;
}

/**
 * What this user may read: in auth mode none everything (the kubeconfig identity reads for everyone, as it acts);
 * signed in, per cluster, the namespaces where the cluster's RBAC lets the user list Rollouts (asked by
 * SubjectAccessReview) or, on a cluster without impersonation, where a role mapping gives them a role. A cluster
 * whose check fails or is slow is hidden on its own, with the reason, and the others are answered.
 */
export async function resolveReadScope(app: AppContext, user: AuthUser): Promise<ReadScope> {
  if (user.via === "none") return FULL_READ_SCOPE;
  const clusters = await Promise.all(app.fleet.clusters.map(async (c) => [c.name, await clusterScopeOf(app, c.name, user)] as const));
  return createReadScope(clusters);
}

/** A Rollout the user may not read answers exactly as one that does not exist: 404, so its existence does not leak. */
export async function requireReadableRollout(app: AppContext, { user, rollout }: { user: AuthUser; rollout: RolloutRef }): Promise<void> {
  if (user.via === "none") return;
  app.fleet.clusterOrThrow(rollout.cluster);
  const scope = createReadScope([[rollout.cluster, await clusterScopeOf(app, rollout.cluster, user, rollout.namespace)]]);
  if (!canReadNamespace(scope, rollout.cluster, rollout.namespace)) throw rolloutNotFound(rollout);
}

/** 403 unless the user may read the audit log (`authorization.auditReaders`). */
export function requireAuditReader(app: AppContext, user: AuthUser): void {
  if (!mayReadAuditLog(app.config.authorization, user)) {
    throw new ApiError("forbidden", "the audit log is open to the users and groups in authorization.auditReaders only");
  }
}
