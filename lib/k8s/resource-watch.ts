import "server-only";
import { Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from "@kubernetes/client-node";
import { redactErrorText } from "@/lib/errors/known-secrets";
import { kubeStatusOf } from "@/lib/errors/kube-errors";
import { rateLimitedLog } from "@/lib/log/rate-limited-log";
import { LeanListWatch, type HeldVersions, type ObjectStub } from "./lean-list-watch";

export type WatchState =
  | { status: "connecting"; since: string }
  | { status: "connected"; since: string }
  | { status: "reconnecting"; since: string; error: string; attempt: number }
  | { status: "forbidden"; since: string; error: string }
  | { status: "unreachable"; since: string; error: string; attempt: number };

export interface ResourceWatchOptions<T extends KubernetesObject> {
  kubeConfig: KubeConfig;
  /** The watch path, e.g. `/apis/argoproj.io/v1alpha1/rollouts`. */
  path: string;
  list: () => Promise<KubernetesListObject<T>>;
  fieldSelector?: string;
  /** What the caller holds of the watched objects (see HeldVersions): onUpsert and onDelete keep it current. */
  held: HeldVersions;
  onUpsert: (obj: T) => void;
  /** The deleted object, or only its name and version when a relist found it gone. */
  onDelete: (obj: T | ObjectStub) => void;
  onState: (state: WatchState) => void;
  /** Called after every full list (the first one, and each relist after a 410 or an error). */
  onList?: (at: Date) => void;
  /** Backoff between reconnect attempts: min(maxBackoffMs, baseBackoffMs·2^attempt), with jitter. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface ResourceWatch {
  stop(): Promise<void>;
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: { code?: string } }).cause;
    const code = kubeStatusOf(err);
    const body = (err as { body?: unknown }).body;
    let detail = err.message;
    if (typeof body === "string") {
      try {
        const parsed = JSON.parse(body) as { message?: string };
        if (parsed.message) detail = parsed.message;
      } catch {
        /* not JSON */
      }
    }
    if (cause?.code && !detail.includes(cause.code)) detail = `${detail} (${cause.code})`;
    return code && !detail.includes(String(code)) ? `HTTP ${code}: ${detail}` : detail;
  }
  return String(err);
}

/**
 * List-then-watch (LeanListWatch: client-node's informer without its object cache), restarted with exponential
 * backoff after any failure (it relists by itself on 410 and re-watches after a clean close, but stops for good on
 * other errors).
 */
export function startResourceWatch<T extends KubernetesObject>(opts: ResourceWatchOptions<T>): ResourceWatch {
  const base = opts.baseBackoffMs ?? 500;
  const max = opts.maxBackoffMs ?? 15_000;
  let attempt = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const now = () => new Date().toISOString();
  let current: WatchState | null = null;
  // Failing again the same way is still the same state: its `since` stays when it began, not the latest retry.
  const report = (state: WatchState) => {
    current = current?.status === state.status ? { ...state, since: current.since } : state;
    opts.onState(current);
  };

  // Which request a failure belongs to: a watch refused after its list succeeded answers a bare "403 Forbidden".
  let request: "list" | "watch" = "list";
  const listAndMarkConnected = async () => {
    request = "list";
    const list = await opts.list();
    request = "watch";
    attempt = 0;
    opts.onList?.(new Date());
    report({ status: "connected", since: now() });
    return list;
  };
  let errors = 0;
  const onError = (err: unknown) => {
    if (stopped) return;
    errors++;
    attempt++;
    const code = kubeStatusOf(err);
    // client-node's fetch errors name the request URL, user-info included.
    const described = redactErrorText(describeError(err));
    const error = (code === 401 || code === 403) && request === "watch" ? `${described}: may list but not watch ${opts.path}` : described;
    // Named by kubeconfig context, not server URL: a URL may carry credentials.
    const context = opts.kubeConfig.getCurrentContext();
    rateLimitedLog().error(`watch ${context} ${opts.path}`, `watch ${opts.path} (context ${context}) failed, attempt ${attempt}: ${error}`);
    if (code === 401 || code === 403) report({ status: "forbidden", since: now(), error });
    else if (!code) report({ status: "unreachable", since: now(), error, attempt });
    else report({ status: "reconnecting", since: now(), error, attempt });
    // The first retry is almost immediate (a dropped watch usually resumes at once); later ones back off.
    const delay = attempt === 1 ? 50 : Math.min(max, base * 2 ** Math.min(attempt - 2, 10)) * (0.8 + Math.random() * 0.4);
    timer = setTimeout(() => {
      if (!stopped) void start();
    }, delay);
  };
  const informer = new LeanListWatch<T>({
    path: opts.path,
    watch: new Watch(opts.kubeConfig),
    list: listAndMarkConnected,
    fieldSelector: opts.fieldSelector,
    held: opts.held,
    onUpsert: opts.onUpsert,
    onDelete: opts.onDelete,
    onError,
    onHandlerError: (err, key) => {
      const context = opts.kubeConfig.getCurrentContext();
      rateLimitedLog().error(
        `watch handler ${context} ${opts.path}`,
        `watch ${opts.path} (context ${context}): ${key} was not taken in: ${redactErrorText(describeError(err))}`,
      );
    },
  });
  // start() resolves once the watch request has its response headers; no error meanwhile means we are watching.
  const start = async () => {
    const before = errors;
    await informer.start().catch(() => undefined);
    if (!stopped && errors === before && attempt > 0) {
      attempt = 0;
      report({ status: "connected", since: now() });
    }
  };
  report({ status: "connecting", since: now() });
  void start();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await informer.stop();
    },
  };
}
