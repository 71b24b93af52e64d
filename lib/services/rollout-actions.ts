import "server-only";
import { deriveActionAvailability, type ActionAvailability } from "@/lib/actions/availability";
import { deriveAuditAfter } from "@/lib/actions/audit-after";
import { describeActionEffect } from "@/lib/actions/effect";
import { deriveActionEffectState } from "@/lib/actions/effect-state";
import { planActionRequests, type KubeRequest } from "@/lib/actions/plan";
import { fingerprintToken } from "@/lib/fleet/rollout-projection";
import { runActionPlan, type ActionPlanClient, type SentKubeRequest, type WirePatch } from "@/lib/actions/run-action-plan";
import { ROLLOUT_ACTIONS, type ActionExpectation, type RolloutAction, type RolloutActionRequest } from "@/lib/actions/schema";
import type { RolloutActionOption, RolloutActionResult, RolloutActionsBatch, RolloutActionsView } from "@/lib/contracts/rollout-actions";
import { messageOf } from "@/lib/errors/message-of";
import { parseRolloutKey } from "@/lib/rollouts/rollout-ref";
import { requireReadableRollout } from "./read-scope";
import { describeStaleness, observeRollout, STALE_MESSAGE } from "@/lib/actions/staleness";
import type { AuditAfter, AuditBefore, AuditOutcome, AuditRecord } from "@/lib/audit/schema";
import type { ActionPermission } from "@/lib/contracts/session";
import type { AuthUser } from "@/lib/auth/types";
import { ApiError, type ApiErrorCode } from "@/lib/errors/api-error";
import { kubeErrorToApiError, kubeStatusOf } from "@/lib/errors/kube-errors";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { KubeApiError, kubeRequest } from "@/lib/k8s/kube-request";
import { NOTHING_PATCHED } from "@/lib/db/audit-entries";
import { decideUndo, type JsonPatchOperation, type UndoSentRequest } from "@/lib/actions/undo";
import { listTemplateContainers, setRolloutImage, SET_IMAGE_MAX_ATTEMPTS, type SetImageSentRequest } from "@/lib/actions/set-image";
import { formatLabelSelector } from "@/lib/rollouts/label-selector";
import { parseReplicaSet, type ReplicaSetResource } from "@/lib/rollouts/workload-schema";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { parseRollout, type RolloutResource } from "@/lib/rollouts/schema";
import type { AppContext } from "@/lib/server/app-context";
import { appendAuditEntry, settleAuditEntry } from "./audit-log";
import { fetchRolloutOrThrow, rolloutPath, watchedRolloutOrThrow } from "./rollout-lookup";
import { authorizeRolloutActions, impersonationHeaders, type ImpersonationTarget, type RolloutAuthorization } from "./session";
import { countAction } from "@/lib/telemetry/observe";

export interface ActionRequestContext {
  user: AuthUser;
  requestId: string;
  clientAddress: string | null;
}

const READ_ONLY_REASON = "Rollscope is in read-only mode: actions are disabled";

function isProduction(watcher: ClusterWatcher): boolean {
  return /^prod(uction)?$/i.test(watcher.config.label ?? "");
}

/** What undo sends (`undo/undo.go`): the JSON Patch's value is the chosen revision's pod template. */
function describeUndoRequests(rollout: RolloutResource): string[] {
  const name = rollout.metadata.name;
  return [
    `GET rollouts/${name}`,
    `LIST replicasets?labelSelector=${formatLabelSelector(rollout.spec?.selector)} (those ${name} controls)`,
    `PATCH rollouts/${name} (JSON Patch) [{"op":"replace","path":"/spec/template","value":<the revision's pod template>}]`,
  ];
}

/** What `set image` sends (`set/set_image.go`): GET, then the object back whole with the image replaced. */
function describeSetImageRequests(rollout: RolloutResource): string[] {
  const name = rollout.metadata.name;
  return [
    `GET rollouts/${name}`,
    `PUT rollouts/${name} (the Rollout as read, with the container's image replaced; again on 409, up to 5 times)`,
  ];
}

function describeRequest(request: KubeRequest, name: string): string {
  if (request.kind === "get") return `GET rollouts/${name}`;
  const target = request.target === "status" ? `rollouts/${name}/status` : `rollouts/${name}`;
  return `PATCH ${target} ${JSON.stringify(request.body)}`;
}

function toAuditBefore(view: FleetRollout): AuditBefore {
  return {
    revision: view.revision,
    stepIndex: view.stepProgress.index,
    totalSteps: view.stepProgress.total,
    phase: view.phase,
    requestedPercent: view.requestedWeight?.percent ?? null,
    canaryPercent: view.appliedWeights?.canaryPercent ?? null,
    stablePercent: view.appliedWeights?.stablePercent ?? null,
    resourceVersion: view.resourceVersion,
  };
}

function combine(
  availability: ActionAvailability,
  permission: ActionPermission | undefined,
  readOnly: boolean,
): Pick<RolloutActionOption, "enabled" | "reason" | "permitted"> {
  if (readOnly) return { enabled: false, reason: READ_ONLY_REASON, permitted: false };
  if (permission && !permission.allowed) return { enabled: false, reason: permission.reason, permitted: false };
  return availability.enabled ? { enabled: true, permitted: true } : { enabled: false, reason: availability.reason, permitted: true };
}

/** The buttons for one Rollout: state (as upstream allows), the user's permission, the effect and the plan. */
export async function getRolloutActionsView(
  app: AppContext,
  { rollout: target, user }: { rollout: RolloutRef; user: AuthUser },
): Promise<RolloutActionsView> {
  const watcher = app.fleet.clusterOrThrow(target.cluster);
  const now = new Date(app.now());
  const { view, raw } = await fetchRolloutOrThrow(watcher, target.namespace, target.name, now);
  const readOnly = app.config.readOnly;
  const authorization = readOnly ? null : await authorizeRolloutActions(app, { rollout: target, user });
  const availability = deriveActionAvailability(raw, { phase: view.phase });
  const effectState = deriveActionEffectState(raw, {
    strategy: view.strategy,
    requestedPercent: view.requestedWeight?.percent ?? null,
    maxTrafficWeight: view.maxTrafficWeight,
  });
  const production = isProduction(watcher);
  const actions = Object.fromEntries(
    ROLLOUT_ACTIONS.map((action): [RolloutAction, RolloutActionOption] => [
      action,
      {
        ...combine(availability[action], authorization?.permissions[action], readOnly),
        effect: describeActionEffect(action, effectState),
        typedConfirmation: production && (action === "promote-full" || action === "abort" || action === "undo"),
        requests:
          action === "undo"
            ? describeUndoRequests(raw)
            : action === "set-image"
              ? describeSetImageRequests(raw)
              : planActionRequests(action, raw, now).requests.map((r) => describeRequest(r, target.name)),
      },
    ]),
  ) as Record<RolloutAction, RolloutActionOption>;
  const observed = { ...observeRollout(raw), fingerprint: fingerprintToken(raw) };
  return {
    cluster: target.cluster,
    namespace: target.namespace,
    name: target.name,
    readOnly,
    actingAs: readOnly ? READ_ONLY_REASON : (authorization?.actingAs ?? ""),
    production,
    expected: observed,
    actions,
    containers: listTemplateContainers(raw),
  };
}

/** Rollouts of one batch asked about at once (each is a GET and a few access reviews). */
const BATCH_CONCURRENCY = 8;

/**
 * The buttons of several Rollouts for one request (the queue's cards): each as {@link getRolloutActionsView} answers
 * it for this user, or its error — one Rollout that cannot be read does not blank the others.
 */
export async function getRolloutActionsViews(
  app: AppContext,
  { keys, user }: { keys: readonly string[]; user: AuthUser },
): Promise<RolloutActionsBatch> {
  const batch: RolloutActionsBatch = { views: {}, errors: {} };
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += BATCH_CONCURRENCY) {
    await Promise.all(
      unique.slice(i, i + BATCH_CONCURRENCY).map(async (key) => {
        const rollout = parseRolloutKey(key);
        try {
          if (!rollout) throw new ApiError("bad_request", `not a cluster/namespace/name key: ${key}`);
          await requireReadableRollout(app, { user, rollout });
          batch.views[key] = await getRolloutActionsView(app, { rollout, user });
        } catch (err) {
          const apiError = err instanceof ApiError ? err : (kubeErrorToApiError(err, messageOf(err)) ?? null);
          if (!apiError) console.error(`actions of ${key} could not be read`, err);
          batch.errors[key] = apiError
            ? { code: apiError.code, message: apiError.message }
            : { code: "internal", message: "internal error" };
        }
      }),
    );
  }
  return batch;
}

/** How an attempt ends, as the audit log records it. */
type ActionOutcome = Exclude<AuditOutcome, "pending" | "interrupted">;

/** A refusal decided before or instead of the cluster's answer, with its audit outcome. */
class ActionRefusal extends Error {
  constructor(
    readonly outcome: ActionOutcome,
    readonly apiError: ApiError,
  ) {
    super(apiError.message);
  }
}

function refuse(outcome: ActionOutcome, code: ApiErrorCode, message: string): ActionRefusal {
  return new ActionRefusal(outcome, new ApiError(code, message));
}

/** The audit log could not record an action's intent, so nothing was sent (and there is nowhere to record that). */
class AuditUnavailable extends Error {
  readonly apiError: ApiError;
  constructor(requestId: string) {
    const message = `the action was not sent: the audit log cannot record it right now (request ${requestId}); try again shortly`;
    super(message);
    this.apiError = new ApiError("upstream_unavailable", message);
  }
}

/**
 * The audit entry of one attempt. A refusal decided before anything was sent is written once, with its outcome.
 * An attempt about to send requests is written first as `pending`, and refused if that write fails, so no action
 * runs unrecorded; its outcome then settles that entry. A crash in between leaves the pending entry, which the
 * next start marks interrupted.
 */
class ActionAudit {
  before: AuditBefore | null = null;
  private intentId: number | null = null;

  constructor(
    private readonly app: AppContext,
    private readonly attempt: Omit<AuditRecord, "before" | "outcome" | "message">,
  ) {}

  async recordIntent(): Promise<void> {
    try {
      this.intentId = await appendAuditEntry(this.app, { ...this.attempt, before: this.before, outcome: "pending", message: null });
    } catch {
      throw new AuditUnavailable(this.attempt.requestId);
    }
  }

  /**
   * Writes the outcome. One settling an intent that cannot be written now is kept in memory and written again until
   * stored (`kept`: true), so the entry does not stay pending; the action's answer is the same either way.
   */
  async recordOutcome(outcome: ActionOutcome, message: string, after: AuditAfter | null = null): Promise<{ kept: boolean }> {
    if (this.intentId === null) {
      // A refusal anyone who may read can repeat at will: a bounded number of rows per user and minute.
      const verdict = outcome === "denied" ? this.app.actionGuard.deniedRows.admit(this.attempt.user, this.app.now()) : null;
      if (verdict && !verdict.record) return { kept: false };
      await appendAuditEntry(this.app, { ...this.attempt, before: this.before, outcome, message: message + (verdict?.note ?? "") });
      return { kept: false };
    }
    const settlement = { id: this.intentId, requestId: this.attempt.requestId, outcome, message, after };
    try {
      await settleAuditEntry(this.app, settlement);
      return { kept: false };
    } catch {
      this.app.actionGuard.outcomeBacklog.add(settlement, () => settleAuditEntry(this.app, settlement));
      return { kept: true };
    }
  }
}

/** How a failure is audited (null: it cannot be) and answered. Kubernetes messages name the user and verb, never credentials. */
function classifyFailure(err: unknown, requestId: string): { outcome: ActionOutcome | null; apiError: ApiError } {
  if (err instanceof AuditUnavailable) return { outcome: null, apiError: err.apiError };
  if (err instanceof ActionRefusal) return { outcome: err.outcome, apiError: err.apiError };
  if (err instanceof ApiError)
    return { outcome: err.code === "forbidden" ? "denied" : err.code === "conflict" ? "conflict" : "error", apiError: err };
  if (err instanceof KubeApiError) {
    const apiError =
      kubeErrorToApiError(err, err.message) ?? new ApiError("upstream_unavailable", `the cluster API failed: ${err.message}`);
    const outcome: ActionOutcome = apiError.code === "forbidden" ? "denied" : apiError.code === "conflict" ? "conflict" : "error";
    return { outcome, apiError };
  }
  console.error(`[${requestId}] rollout action failed`, err);
  return { outcome: "error", apiError: new ApiError("internal", `internal error (request ${requestId})`) };
}

/**
 * Refuses unless the Rollout is still what the user confirmed: same revision and step, and either the same
 * resourceVersion or a later one with the fingerprint the user's view carried. A version this process already acted
 * on (on either side) is stale: the watch may simply not have delivered the change yet.
 */
function checkFresh(app: AppContext, key: string, expected: ActionExpectation, current: RolloutResource): void {
  const moved = describeStaleness({ revision: expected.revision, stepIndex: expected.stepIndex }, observeRollout(current));
  if (moved) throw refuse("stale", "stale", `${STALE_MESSAGE} (${moved})`);
  const currentVersion = current.metadata.resourceVersion ?? null;
  if (expected.resourceVersion && app.actionGuard.hasActed(key, expected.resourceVersion)) {
    throw refuse("stale", "stale", `${STALE_MESSAGE} (an action was already applied to resourceVersion ${expected.resourceVersion})`);
  }
  if (currentVersion && app.actionGuard.hasActed(key, currentVersion)) {
    throw refuse("stale", "stale", `${STALE_MESSAGE} (an action on resourceVersion ${currentVersion} is still being applied)`);
  }
  if (expected.resourceVersion && expected.resourceVersion !== currentVersion) {
    // A newer version is fine when nothing the action depends on changed (a replica count, a condition's time).
    if (expected.fingerprint === undefined || expected.fingerprint !== fingerprintToken(current)) {
      throw refuse("stale", "stale", `${STALE_MESSAGE} (resourceVersion ${expected.resourceVersion} → ${currentVersion ?? "none"})`);
    }
  }
}

/** How far back another replica's action on the same state counts (the acted memory of the shared audit log). */
const ACTED_WINDOW_MS = 10 * 60_000;

/**
 * The in-process guard's memory across replicas: refuses as stale when the shared audit log shows an action on this
 * Rollout started or applied, by any replica, on the state the user reviewed or on the one this replica sees.
 */
async function checkNotActedElsewhere(
  app: AppContext,
  target: RolloutRef,
  expected: ActionExpectation,
  current: RolloutResource,
): Promise<void> {
  const versions = [expected.resourceVersion, current.metadata.resourceVersion].filter((v): v is string => Boolean(v));
  if (await app.repos.auditEntries.hasActedOn(target, [...new Set(versions)], new Date(app.now() - ACTED_WINDOW_MS))) {
    throw refuse("stale", "stale", `${STALE_MESSAGE} (another action on this state was already sent)`);
  }
}

/** The I/O of undo, sent with the same identity (impersonated or not) as the other actions. */
interface UndoClient {
  getRollout(): Promise<RolloutResource>;
  listReplicaSets(namespace: string, labelSelector: string): Promise<ReplicaSetResource[]>;
  patchTemplate(body: readonly JsonPatchOperation[]): Promise<void>;
}

/** The I/O of set image: the Rollout exactly as the API server sent it, and an Update of the whole object. */
interface SetImageClient {
  getRaw(): Promise<Record<string, unknown>>;
  put(body: Record<string, unknown>): Promise<void>;
}

/** Every request an action sent, in order. */
type SentRequest = SentKubeRequest | UndoSentRequest | SetImageSentRequest;

function kubeClient(
  watcher: ClusterWatcher,
  target: RolloutRef,
  impersonate: ImpersonationTarget | null,
  onGet: (rollout: RolloutResource) => void,
) {
  const headers = impersonationHeaders(impersonate);
  const path = rolloutPath(target.namespace, target.name);
  let lastResourceVersion: string | undefined;
  // The Rollout as the last PATCH answered it (null when none did, or its answer did not parse).
  let patched: RolloutResource | null = null;
  const rememberPatched = (answer: { metadata?: { resourceVersion?: string } }) => {
    lastResourceVersion = answer.metadata?.resourceVersion ?? lastResourceVersion;
    const parsed = parseRollout(answer);
    patched = parsed.ok ? parsed.rollout : null;
  };
  const client: ActionPlanClient = {
    async getRollout() {
      const parsed = parseRollout(await kubeRequest<unknown>(watcher.clients.kubeConfig, path, { headers }));
      if (!parsed.ok) throw new ApiError("conflict", `the Rollout no longer matches the expected schema: ${parsed.error}`);
      onGet(parsed.rollout);
      return parsed.rollout;
    },
    async patchRollout(patch: WirePatch) {
      const url = patch.target === "status" ? `${path}/status` : path;
      rememberPatched(
        await kubeRequest<{ metadata?: { resourceVersion?: string } }>(watcher.clients.kubeConfig, url, {
          method: "PATCH",
          body: patch.body,
          contentType: "application/merge-patch+json",
          headers,
        }),
      );
    },
    isNotFound: (error) => kubeStatusOf(error) === 404,
  };
  const undo: UndoClient = {
    getRollout: () => client.getRollout() as Promise<RolloutResource>,
    async listReplicaSets(namespace, labelSelector) {
      const list = await kubeRequest<{ items?: unknown[] }>(
        watcher.clients.kubeConfig,
        `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/replicasets`,
        { query: { labelSelector }, headers },
      );
      return (list.items ?? []).map(parseReplicaSet).flatMap((r) => (r.ok ? [r.replicaSet] : []));
    },
    async patchTemplate(body) {
      rememberPatched(
        await kubeRequest<{ metadata?: { resourceVersion?: string } }>(watcher.clients.kubeConfig, path, {
          method: "PATCH",
          body,
          contentType: "application/json-patch+json",
          headers,
        }),
      );
    },
  };
  const setImage: SetImageClient = {
    async getRaw() {
      const raw = await kubeRequest<Record<string, unknown>>(watcher.clients.kubeConfig, path, { headers });
      const parsed = parseRollout(raw);
      if (!parsed.ok) throw new ApiError("conflict", `the Rollout no longer matches the expected schema: ${parsed.error}`);
      onGet(parsed.rollout);
      return raw;
    },
    async put(body) {
      rememberPatched(
        await kubeRequest<{ metadata?: { resourceVersion?: string } }>(watcher.clients.kubeConfig, path, { method: "PUT", body, headers }),
      );
    },
  };
  return { client, undo, setImage, lastResourceVersion: () => lastResourceVersion, patched: (): RolloutResource | null => patched };
}

/** The requests an action sent and the state its last PATCH answered with (null when nothing was patched). */
interface ExecutedAction {
  sent: SentRequest[];
  after: AuditAfter | null;
  /** What the audit and the answer say beyond the requests (undo's target revision and image, set image's change). */
  detail: string | null;
}

/**
 * Under the Rollout's lock: one read from the API server gives the state the audit records as before, the
 * expectation is checked against, the phase gate and the plan (never the watch's copy, which may lag).
 */
async function executeAction(
  app: AppContext,
  watcher: ClusterWatcher,
  target: RolloutRef,
  request: RolloutActionRequest,
  authorization: RolloutAuthorization,
  audit: ActionAudit,
): Promise<ExecutedAction> {
  const key = `${target.cluster}/${target.namespace}/${target.name}`;
  const exclusive = <T>(fn: () => Promise<T>) => app.actionGuard.runExclusive(key, () => app.repos.actionLocks.runExclusive(key, fn));
  return exclusive(async () => {
    const { view, raw } = await fetchRolloutOrThrow(watcher, target.namespace, target.name, new Date(app.now()));
    audit.before = toAuditBefore(view);
    checkFresh(app, key, request.expected, raw);
    await checkNotActedElsewhere(app, target, request.expected, raw);
    const availability = deriveActionAvailability(raw, { phase: view.phase })[request.action];
    if (!availability.enabled) throw refuse("conflict", "conflict", availability.reason ?? "the action does not apply now");
    const plan = planActionRequests(request.action, raw, new Date(app.now()));
    await audit.recordIntent();
    // Upstream's promote and undo GET first; the answer is the freshest state there is, so the expectation is checked again.
    const { client, undo, setImage, lastResourceVersion, patched } = kubeClient(watcher, target, authorization.impersonate, (fresh) =>
      checkFresh(app, key, request.expected, fresh),
    );
    const { sent, detail } =
      request.action === "undo"
        ? await runUndo(undo, request.toRevision ?? 0)
        : request.action === "set-image"
          ? await runSetImage(setImage, request.container ?? "", request.image ?? "")
          : { sent: await runActionPlan(plan, client), detail: null };
    const afterVersion = lastResourceVersion();
    if (afterVersion && afterVersion !== raw.metadata.resourceVersion) {
      if (request.expected.resourceVersion) app.actionGuard.rememberActed(key, request.expected.resourceVersion);
      if (raw.metadata.resourceVersion) app.actionGuard.rememberActed(key, raw.metadata.resourceVersion);
    }
    const answer = patched();
    return { sent: [...sent], after: answer ? deriveAuditAfter(answer) : null, detail };
  });
}

/**
 * `RunUndoRollout`: GET, LIST the ReplicaSets (as the same identity), then the JSON Patch `decideUndo` asks for.
 * A revision the template already matches sends nothing more; a revision not in history is a conflict.
 */
async function runUndo(client: UndoClient, toRevision: number): Promise<{ sent: SentRequest[]; detail: string | null }> {
  const rollout = await client.getRollout();
  const labelSelector = formatLabelSelector(rollout.spec?.selector);
  const replicaSets = await client.listReplicaSets(rollout.metadata.namespace ?? "default", labelSelector);
  const sent: SentRequest[] = [{ kind: "get" }, { kind: "list", resource: "replicasets", labelSelector }];
  const decision = decideUndo(rollout, replicaSets, toRevision);
  if (decision.kind === "error") throw refuse("conflict", "conflict", decision.message);
  if (decision.kind === "skip") return { sent, detail: `revision ${decision.revision}` };
  await client.patchTemplate(decision.patch);
  const template = decision.patch[0]?.value as { spec?: Record<string, unknown> } | undefined;
  const images = listTemplateContainers({ spec: { template } }).map((c) => `${c.name}=${c.image}`);
  return {
    sent: [...sent, { kind: "json-patch", target: "main", body: decision.patch, outcome: "ok" }],
    detail: `to revision ${decision.revision}${images.length ? ` (${images.join(", ")})` : ""}`,
  };
}

/**
 * `set image`: GET, replace the image (`setRolloutImage`), Update (PUT) the whole object; a 409 Conflict (someone
 * wrote in between) starts again from the GET, up to 5 attempts, as the CLI's loop does.
 */
async function runSetImage(client: SetImageClient, container: string, image: string): Promise<{ sent: SentRequest[]; detail: string }> {
  const sent: SentRequest[] = [];
  for (let attempt = 1; ; attempt++) {
    const raw = await client.getRaw();
    sent.push({ kind: "get" });
    const result = setRolloutImage(raw, container, image);
    if (!result.ok) throw refuse("conflict", "conflict", result.message);
    try {
      await client.put(result.rollout);
    } catch (err) {
      if (err instanceof KubeApiError && kubeStatusOf(err) === 409 && attempt < SET_IMAGE_MAX_ATTEMPTS) continue;
      throw err;
    }
    sent.push({ kind: "put", target: "main", attempt, outcome: "ok" });
    const changes = result.containers.map((name, i) => `${name}: ${result.previous[i] || "(none)"} → ${image}`);
    return { sent, detail: `image ${changes.join(", ")}` };
  }
}

function summarize(sent: readonly SentRequest[], detail: string | null): string {
  if (sent.some((r) => r.kind === "put")) return `${detail ?? "image set"} (Update)`;
  if (sent.some((r) => r.kind === "json-patch")) return `pod template replaced (JSON Patch)${detail ? ` ${detail}` : ""}`;
  if (sent.some((r) => r.kind === "list")) return `nothing to patch: the template already matches ${detail ?? "that revision"}`;
  const patches = sent.filter((r) => r.kind === "patch");
  if (patches.length === 0) return NOTHING_PATCHED;
  return patches.map((p) => (p.kind === "patch" ? `${p.target} ${p.outcome === "ok" ? "patched" : "not found"}` : "")).join(", ");
}

/**
 * Carries out one action as `kubectl argo rollouts <action>` would, for this user, and audits the attempt whatever
 * happens: read-only mode and missing permission are `denied`, a Rollout that moved on since the user looked is
 * `stale`, an action the state does not allow is `conflict`, a cluster (reachable or not) or internal failure is
 * `error`. Nothing is sent unless the audit log first recorded the intent (503 otherwise).
 */
export async function runRolloutAction(
  app: AppContext,
  { rollout: target, request, caller }: { rollout: RolloutRef; request: RolloutActionRequest; caller: ActionRequestContext },
): Promise<RolloutActionResult> {
  const audit = new ActionAudit(app, {
    user: caller.user.name,
    groups: caller.user.groups,
    cluster: target.cluster,
    namespace: target.namespace,
    rollout: target.name,
    action: request.action,
    requestId: caller.requestId,
    clientAddress: caller.clientAddress,
  });
  let executed: ExecutedAction;
  try {
    if (app.config.readOnly) throw refuse("denied", "forbidden", READ_ONLY_REASON);
    const watcher = app.fleet.clusterOrThrow(target.cluster);
    // The watched state, for a refusal decided before the Rollout is read; executeAction's read replaces it.
    audit.before = toAuditBefore(watchedRolloutOrThrow(watcher, target.namespace, target.name));
    if (!request.expected.resourceVersion) {
      throw refuse("error", "bad_request", "expected.resourceVersion is required: send the state you reviewed (GET …/actions returns it)");
    }
    const authorization = await authorizeRolloutActions(app, { rollout: target, user: caller.user });
    if (authorization.unavailable) throw refuse("error", "upstream_unavailable", authorization.unavailable);
    const permission = authorization.permissions[request.action];
    if (!permission.allowed) throw refuse("denied", "forbidden", permission.reason ?? "not allowed");
    executed = await executeAction(app, watcher, target, request, authorization, audit);
  } catch (err) {
    const { outcome, apiError } = classifyFailure(err, caller.requestId);
    countAction(request.action, outcome ?? "not_sent");
    if (outcome) await audit.recordOutcome(outcome, apiError.message).catch(() => undefined);
    throw apiError;
  }
  const { sent, after, detail } = executed;
  const message = summarize(sent, detail);
  countAction(request.action, "done");
  const { kept } = await audit.recordOutcome("done", message, after);
  const note = kept ? " (the audit log records this outcome as soon as the database takes the write)" : "";
  return { action: request.action, outcome: "done", message: message + note, requests: sent };
}
