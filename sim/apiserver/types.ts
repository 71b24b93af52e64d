import type { ObjectStore } from "../store/object-store";

export interface SimUser {
  name: string;
  token: string;
  groups: string[];
}

/** One RBAC PolicyRule: `"*"` is a wildcard everywhere; `resources` may name subresources (`rollouts/status`). */
export interface RbacRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  /** Absent: every namespace and the cluster scope (a ClusterRoleBinding); present: only these namespaces (RoleBindings). */
  namespaces?: string[];
  resourceNames?: string[];
}

export interface RbacBinding {
  subjects: Array<{ kind: "User" | "Group"; name: string }>;
  rules: RbacRule[];
  /** Shown in access-review reasons; defaults to `binding-<index>`. */
  name?: string;
}

export interface ApiServerOptions {
  store: ObjectStore;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  users: SimUser[];
  rbac: RbacBinding[];
  /** How often a watch with allowWatchBookmarks=true gets a BOOKMARK; default 60 000 ms. */
  bookmarkIntervalMs?: number;
  /** Base URL (e.g. http://127.0.0.1:41234) the service proxy forwards to, or null when the service has no target. */
  resolveServiceProxy?: (namespace: string, service: string, port: string) => string | null;
}

export interface Faults {
  /** Ends every open watch stream abruptly (destroys its socket). */
  dropWatches(): void;
  /** The next watch request answers 410 Expired (an ERROR event in a 200 stream, as a real API server does). */
  expireNextWatch(): void;
  /** Answers the next `count` resource requests (not discovery, health or version) with this Status code. */
  failNext(count: number, status: 500 | 429 | 503, retryAfterSeconds?: number): void;
  /** Delays every response by `ms`. */
  setLatency(ms: number): void;
  reset(): void;
}

export interface ApiServerHandle {
  /** http://127.0.0.1:{port} */
  url: string;
  /**
   * The same port over TLS with a throwaway self-signed certificate (skip verification). kubectl needs it: client-go
   * sends a kubeconfig's token only over TLS. buildKubeconfig points at it by itself.
   */
  httpsUrl?: string;
  port: number;
  faults: Faults;
  /** Goes down: closes the listener and every open connection, watches included. */
  stop(): Promise<void>;
  /** Comes back on the same port. */
  start(): Promise<void>;
  readonly running: boolean;
}
