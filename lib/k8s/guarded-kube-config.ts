import "server-only";
import path from "node:path";
import { KubeConfig, type User } from "@kubernetes/client-node";
import { redactErrorText } from "@/lib/errors/known-secrets";

/** The credentials of the kubeconfig user could not be obtained; the message is safe to show. */
export class KubeCredentialError extends Error {}

/** The command a user's credentials come from: an exec plugin, or a gcp/azure auth provider's `cmd-path`. */
function credentialCommandOf(user: User): string | undefined {
  const exec = user.exec as { command?: unknown } | null | undefined;
  const provider = user.authProvider as { config?: Record<string, unknown> } | null | undefined;
  const command = exec?.command ?? provider?.config?.["cmd-path"];
  return typeof command === "string" ? command : undefined;
}

/**
 * What went wrong obtaining a user's credentials, without a credential command's output: client-node puts the
 * plugin's stderr (or, for unparsable output, part of its stdout) into the error, and that text can hold tokens.
 */
export function describeCredentialFailure(user: User | null, err: unknown): string {
  const command = user ? credentialCommandOf(user) : undefined;
  if (!user || !command)
    return `the kubeconfig credentials could not be applied: ${redactErrorText(err instanceof Error ? err.message : String(err))}`;
  const code = (err as { code?: unknown } | null)?.code;
  const failure =
    typeof code === "string" ? `could not be run (${code})` : err instanceof SyntaxError ? "printed no valid ExecCredential" : "failed";
  return `the credential command "${path.basename(command)}" of kubeconfig user "${user.name}" ${failure}; its output is not shown, as it may hold credentials`;
}

/**
 * A KubeConfig whose credential failures carry no secret: every request path of client-node (fetch options, watches,
 * the generated API clients) obtains credentials through the two methods overridden here.
 */
export class GuardedKubeConfig extends KubeConfig {
  override async applyToHTTPSOptions(opts: Parameters<KubeConfig["applyToHTTPSOptions"]>[0]): Promise<void> {
    try {
      await super.applyToHTTPSOptions(opts);
    } catch (err) {
      throw new KubeCredentialError(describeCredentialFailure(this.getCurrentUser(), err), { cause: err });
    }
  }

  override async applySecurityAuthentication(context: Parameters<KubeConfig["applySecurityAuthentication"]>[0]): Promise<void> {
    try {
      await super.applySecurityAuthentication(context);
    } catch (err) {
      throw new KubeCredentialError(describeCredentialFailure(this.getCurrentUser(), err), { cause: err });
    }
  }
}
