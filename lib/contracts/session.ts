import { z } from "zod";
import type { RolloutAction } from "@/lib/actions/schema";
import type { AuthMode } from "@/lib/auth/types";
import { apiPath } from "./paths";

/** GET /api/session: who the browser is, and the CSRF token its state-changing requests must send. */
export interface SessionView {
  mode: AuthMode;
  /** null when not signed in (modes proxy and oidc). In mode none: the kubeconfig identity. */
  user: { name: string; groups: string[] } | null;
  readOnly: boolean;
  /** Whether this user may open the audit log (`authorization.auditReaders`; everyone in mode none). */
  canReadAudit: boolean;
  /** Where to send a signed-out browser; null when there is no sign-in page (modes none and proxy). */
  signInUrl: string | null;
  /** On whose authority actions run, in a sentence: "No sign-in: actions run as the dashboard's kubeconfig identity". */
  identityNote: string;
  /** Its short form for the header ("No sign-in", "Signed in as alice", "Not signed in"), the note as its title. */
  identityLabel: string;
  csrfToken: string;
}

export const sessionPath = () => apiPath("GET /api/session", "/api/session");

/** `GET /api/session/permissions?cluster=&namespace=&name=`: what the current user may do to one Rollout. */
export const PermissionsQuery = z.strictObject({ cluster: z.string().min(1), namespace: z.string().min(1), name: z.string().min(1) });

export interface ActionPermission {
  readonly allowed: boolean;
  /** Why not, in plain words; absent when allowed. */
  readonly reason?: string;
}

/** The answer of `GET /api/session/permissions`: the cluster's RBAC (or the role mapping) alone, not the Rollout's state. */
export interface RolloutPermissionsView {
  readOnly: boolean;
  actingAs: string;
  permissions: Record<RolloutAction, ActionPermission>;
}

/** `POST /api/auth/signout`: the session is over and its cookies are cleared. */
export interface SignOutResult {
  signedOut: true;
}

export const signOutPath = () => apiPath("POST /api/auth/signout", "/api/auth/signout");
