/** How the current request's user was established. */
export type AuthMode = "none" | "proxy" | "oidc";

/**
 * Who is asking. In mode `none` nobody signs in: `via: "none"` and actions run as the kubeconfig identity.
 * Otherwise the name and groups come from a trusted auth proxy or the OIDC session, never from the client.
 */
export interface AuthUser {
  readonly via: AuthMode;
  readonly name: string;
  readonly groups: readonly string[];
  /** Random id of the OIDC session (binds the CSRF token); null outside mode oidc. */
  readonly sessionId: string | null;
}

/** The name audited for requests in mode `none`. */
export const KUBECONFIG_IDENTITY = "anonymous (kubeconfig identity)";
