import "server-only";
import type { Cluster, User } from "@kubernetes/client-node";

/** Names of auth-provider settings and exec env variables that hold credentials (access-token, API_KEY, …). */
const SECRET_NAME = /token|secret|password|key|credential/i;

function passwordInUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return undefined;
  }
}

function authProviderSecrets(user: User): unknown[] {
  const config = (user.authProvider as { config?: Record<string, unknown> } | undefined)?.config ?? {};
  return Object.entries(config)
    .filter(([key]) => SECRET_NAME.test(key))
    .map(([, value]) => value);
}

function execEnvSecrets(user: User): unknown[] {
  const env = (user.exec as { env?: Array<{ name?: unknown; value?: unknown }> | null } | undefined)?.env;
  return Array.isArray(env)
    ? env.filter((entry) => typeof entry?.name === "string" && SECRET_NAME.test(entry.name)).map((entry) => entry.value)
    : [];
}

/**
 * The credential values of a kubeconfig user and cluster: token, password, client key data, auth-provider secrets,
 * the exec plugin's secret-named environment variables and the passwords in the server and proxy URLs (the
 * user-info shape is redacted whole anyway).
 */
export function listKubeconfigSecrets(user: User | null, cluster: Cluster | null): string[] {
  const values: unknown[] = [passwordInUrl(cluster?.server), passwordInUrl(cluster?.proxyUrl)];
  if (user) values.push(user.token, user.password, user.keyData, ...authProviderSecrets(user), ...execEnvSecrets(user));
  return values.filter((value): value is string => typeof value === "string" && value.length > 0);
}
