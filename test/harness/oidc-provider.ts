import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

export interface OidcAccount {
  email: string;
  groups: string[];
}

export interface OidcProviderOptions {
  /** The relying party's callback URLs. */
  redirectUris: string[];
  /** By login name as typed into the provider's login form. Unknown logins sign in without groups. */
  accounts: Record<string, OidcAccount>;
}

export interface OidcProviderHandle {
  /** http://127.0.0.1:{port} */
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * A real OpenID Provider (panva's `oidc-provider`) on 127.0.0.1 for sign-in tests: one confidential client with PKCE
 * required, the provider's development login form (any password), consent skipped for the client, and `email`
 * and `groups` claims in the ID token.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProviderHandle> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "rollscope";
  const clientSecret = randomBytes(24).toString("base64url");

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"], groups: ["groups"] },
    // Claims requested by scope go into the ID token too, as most enterprise providers do for groups.
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
      const account = options.accounts[id] ?? { email: `${id}@example.com`, groups: [] };
      return {
        accountId: id,
        claims: () => ({ sub: id, email: account.email, email_verified: true, name: id, preferred_username: id, groups: account.groups }),
      };
    },
    // First-party client: grant what it asks for instead of showing a consent page.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId;
      const client = ctx.oidc.client;
      if (!accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId });
      grant.addOIDCScope("openid email profile groups");
      grant.addOIDCClaims(["email", "email_verified", "name", "preferred_username", "groups"]);
      await grant.save();
      return grant;
    },
  });
  server.on("request", provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
