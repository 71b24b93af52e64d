import { z } from "zod";
import { parseCidr } from "./cidr";

/** An HTTP header name, compared in lower case as Node delivers them. */
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9-]+$/, { message: "must be an HTTP header name such as X-Forwarded-User" })
  .transform((name) => name.toLowerCase());

/** An address or range in CIDR notation, kept as written (lib/config/cidr parses it). */
export const cidr = z.string().refine((text) => parseCidr(text) !== undefined, {
  message: "must be an IP address or CIDR range such as 10.0.0.0/8 or fd00::/8",
});

const proxyAuthSchema = z.strictObject({
  /** The header the auth proxy sets to the signed-in user (oauth2-proxy: X-Forwarded-User or X-Forwarded-Email). */
  userHeader: headerName.default("x-forwarded-user"),
  /** Comma-separated groups (oauth2-proxy: X-Forwarded-Groups). */
  groupsHeader: headerName.default("x-forwarded-groups"),
  /** Only requests whose TCP peer is in one of these ranges may set the identity headers. */
  trustedProxies: z.array(cidr).min(1, { message: "list the auth proxy's addresses (CIDR), e.g. [10.0.0.0/8]" }),
  /**
   * User names in Kubernetes' own `system:` forms (`system:serviceaccount:…`, `system:admin`, `system:kube-proxy`)
   * the proxy may name. None by default: such a name is refused (403), since acting as it would impersonate a
   * service account (Rollscope's own included) or a component rather than a person.
   */
  allowedSystemUsers: z.array(z.string().startsWith("system:")).default([]),
});

const oidcAuthSchema = z
  .strictObject({
    issuer: z.url({ protocol: /^https?$/ }),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    clientSecretFile: z.string().min(1).optional(),
    /** Default: `${auth.baseUrl}/api/auth/callback`. Register it with the provider. */
    redirectUrl: z.url({ protocol: /^https?$/ }).optional(),
    scopes: z
      .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, { message: "must be a single OAuth scope" }))
      .default(["openid", "profile", "email", "groups"])
      .refine((scopes) => scopes.includes("openid"), { message: 'must include "openid"' }),
    /** ID-token claim that names the user; as kube-apiserver's --oidc-username-claim. */
    usernameClaim: z.string().min(1).default("email"),
    groupsClaim: z.string().min(1).default("groups"),
    /** Prepended as kube-apiserver's --oidc-username-prefix / --oidc-groups-prefix do, so impersonation matches RBAC. */
    usernamePrefix: z.string().default(""),
    groupsPrefix: z.string().default(""),
  })
  .refine((o) => !(o.clientSecret && o.clientSecretFile), {
    message: "set clientSecret or clientSecretFile, not both",
    path: ["clientSecretFile"],
  });

export const authConfigSchema = z
  .strictObject({
    mode: z.enum(["none", "proxy", "oidc"]).default("none"),
    /** The public URL of Rollscope (https://rollscope.example.com): the OIDC redirect base and the allowed Origin. */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** Key for session and CSRF cookies; ROLLSCOPE_SESSION_SECRET also works. At least 32 characters. */
    sessionSecret: z.string().min(32, { message: "must be at least 32 characters" }).optional(),
    sessionSecretFile: z.string().min(1).optional(),
    sessionTtlHours: z.number().int().min(1).max(720).default(12),
    proxy: proxyAuthSchema.optional(),
    oidc: oidcAuthSchema.optional(),
  })
  .superRefine((auth, ctx) => {
    if (auth.sessionSecret && auth.sessionSecretFile) {
      ctx.addIssue({ code: "custom", path: ["sessionSecretFile"], message: "set sessionSecret or sessionSecretFile, not both" });
    }
    if (auth.mode === "proxy" && !auth.proxy) {
      ctx.addIssue({ code: "custom", path: ["proxy"], message: "mode proxy needs proxy.trustedProxies (the auth proxy's addresses)" });
    }
    if (auth.mode === "oidc" && !auth.oidc) {
      ctx.addIssue({ code: "custom", path: ["oidc"], message: "mode oidc needs oidc.issuer and oidc.clientId" });
    }
    if (auth.mode === "oidc" && auth.oidc && !auth.oidc.redirectUrl && !auth.baseUrl) {
      ctx.addIssue({
        code: "custom",
        path: ["baseUrl"],
        message: "mode oidc needs baseUrl (or oidc.redirectUrl) to build the redirect URL",
      });
    }
  });

const roleMappingSchema = z.strictObject({
  /** A group of the signed-in user (after oidc.groupsPrefix). */
  group: z.string().min(1),
  role: z.enum(["viewer", "operator"]),
  /** Cluster names, or "*" for all. */
  clusters: z.array(z.string().min(1)).min(1).default(["*"]),
  /** Namespaces, or "*" for all. */
  namespaces: z.array(z.string().min(1)).min(1).default(["*"]),
});

export const authorizationConfigSchema = z.strictObject({
  /**
   * Ask the cluster (SubjectAccessReview) what a signed-in user may do, and send actions as that user
   * (Impersonate-User/Group). Needs `impersonate` on users and groups for the dashboard's identity.
   */
  impersonate: z.boolean().default(true),
  /** Per-cluster override of `impersonate`. */
  clusters: z.record(z.string(), z.strictObject({ impersonate: z.boolean() })).default({}),
  /** Used on clusters without impersonation: groups → viewer/operator. Users with no matching role may not act. */
  roleMappings: z.array(roleMappingSchema).default([]),
  /**
   * Groups never passed on when impersonating a user, whatever the identity provider or proxy says (besides
   * system:masters, which never is): groups your clusters bind to cluster-admin, for example.
   */
  privilegedGroups: z.array(z.string().min(1)).optional(),
  /**
   * Who may read and export the audit log when signed in (modes proxy and oidc): any of these users or groups
   * (after oidc.groupsPrefix). Nobody by default; in mode none, whoever reaches Rollscope.
   */
  auditReaders: z
    .strictObject({ users: z.array(z.string().min(1)).default([]), groups: z.array(z.string().min(1)).default([]) })
    .default({ users: [], groups: [] }),
});

/** Cluster names in `authorization` must be configured clusters. */
export function checkAuthorizationClusters(
  config: { clusters: readonly { name: string }[]; authorization: z.infer<typeof authorizationConfigSchema> },
  ctx: z.RefinementCtx,
): void {
  const names = new Set(config.clusters.map((c) => c.name));
  for (const name of Object.keys(config.authorization.clusters)) {
    if (!names.has(name)) {
      ctx.addIssue({ code: "custom", path: ["authorization", "clusters", name], message: `no cluster named "${name}" is configured` });
    }
  }
  for (const [i, mapping] of config.authorization.roleMappings.entries()) {
    for (const cluster of mapping.clusters) {
      if (cluster !== "*" && !names.has(cluster)) {
        ctx.addIssue({
          code: "custom",
          path: ["authorization", "roleMappings", i, "clusters"],
          message: `no cluster named "${cluster}" is configured`,
        });
      }
    }
  }
}
