import "server-only";
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { statSync } from "node:fs";
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
function describeCredentialFailure(user: User | null, err: unknown, bounded: string | null = null): string {
  const command = user ? credentialCommandOf(user) : undefined;
  if (!user || !command)
    return `the kubeconfig credentials could not be applied: ${redactErrorText(err instanceof Error ? err.message : String(err))}`;
  const code = (err as { code?: unknown } | null)?.code;
  const failure =
    bounded ??
    (typeof code === "string" ? `could not be run (${code})` : err instanceof SyntaxError ? "printed no valid ExecCredential" : "failed");
  return `the credential command "${path.basename(command)}" of kubeconfig user "${user.name}" ${failure}; its output is not shown, as it may hold credentials`;
}

/** Bounds on what one kubeconfig entry may cost the process; past one, only that cluster fails. */
export interface KubeConfigLimits {
  /** An exec credential plugin's stdout and stderr together. */
  maxPluginOutputBytes: number;
  /** An exec credential plugin's run time, after which it is killed. */
  pluginTimeoutMs: number;
  /** Each certificate-authority, client-certificate and client-key file. */
  maxCredentialFileBytes: number;
}

export const DEFAULT_KUBECONFIG_LIMITS: KubeConfigLimits = {
  maxPluginOutputBytes: 1024 * 1024,
  pluginTimeoutMs: 30_000,
  maxCredentialFileBytes: 4 * 1024 * 1024,
};

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** client-node's ExecAuth, reached by duck typing: it is not exported, and its `execFn` is how a plugin is spawned. */
type ExecFn = (command: string, args: string[] | undefined, opts: SpawnOptions) => ChildProcess;
interface ExecAuthLike {
  execFn: ExecFn;
}

/**
 * A KubeConfig whose credential failures carry no secret, and whose entries are bounded: an exec plugin is killed
 * past `maxPluginOutputBytes` of output or `pluginTimeoutMs`, and a CA, certificate or key file larger than
 * `maxCredentialFileBytes` is not read. Each fails that cluster's requests with a message saying which bound it
 * crossed (shown with the cluster), instead of filling the heap or leaving the cluster connecting for ever. Every
 * request path of client-node (fetch options, watches, the generated API clients) obtains credentials through the
 * two methods overridden here.
 */
export class GuardedKubeConfig extends KubeConfig {
  /** Why the last plugin run was stopped (consumed by the failure it causes). */
  private stopped: string | null = null;

  constructor(private readonly limits: KubeConfigLimits = DEFAULT_KUBECONFIG_LIMITS) {
    super();
    const authenticators = (this as unknown as { authenticators: unknown[] }).authenticators;
    for (const authenticator of authenticators) {
      if (typeof (authenticator as Partial<ExecAuthLike>).execFn === "function") (authenticator as ExecAuthLike).execFn = this.boundedSpawn;
    }
  }

  private readonly boundedSpawn: ExecFn = (command, args, opts) => {
    // A process group of its own, so a stop ends what the plugin started too (a shell's pipeline holds the pipes).
    const child = spawn(command, args ?? [], { ...opts, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let bytes = 0;
    const stop = (reason: string) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      this.stopped = reason;
      // Nothing more is read, and the streams' end lets client-node see the run end.
      child.stdout?.destroy();
      child.stderr?.destroy();
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const count = (chunk: string | Buffer) => {
      bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
      if (bytes > this.limits.maxPluginOutputBytes) stop(`printed more than ${mib(this.limits.maxPluginOutputBytes)} and was stopped`);
    };
    child.stdout?.on("data", count);
    child.stderr?.on("data", count);
    const timer = setTimeout(
      () => stop(`did not finish within ${this.limits.pluginTimeoutMs / 1000} s and was stopped`),
      this.limits.pluginTimeoutMs,
    );
    child.once("close", () => clearTimeout(timer));
    return child;
  };

  /** Refuses a CA, certificate or key file over the bound before client-node reads it whole. */
  private checkCredentialFiles(): void {
    const cluster = this.getCurrentCluster();
    const user = this.getCurrentUser();
    const files: Array<[string, string | undefined]> = [
      ["certificate-authority", cluster?.caFile],
      ["client-certificate", user?.certFile],
      ["client-key", user?.keyFile],
    ];
    for (const [field, file] of files) {
      if (!file) continue;
      let size: number;
      try {
        size = statSync(file).size;
      } catch (err) {
        throw new KubeCredentialError(
          `the kubeconfig's ${field} file ${file} cannot be read (${(err as { code?: string }).code ?? "error"})`,
        );
      }
      if (size > this.limits.maxCredentialFileBytes)
        throw new KubeCredentialError(
          `the kubeconfig's ${field} file ${file} is ${mib(size)}, more than the ${mib(this.limits.maxCredentialFileBytes)} such a file may be; it was not read`,
        );
    }
  }

  private credentialError(err: unknown): KubeCredentialError {
    if (err instanceof KubeCredentialError) return err;
    const bounded = this.stopped;
    this.stopped = null;
    return new KubeCredentialError(describeCredentialFailure(this.getCurrentUser(), err, bounded), { cause: err });
  }

  override async applyToHTTPSOptions(opts: Parameters<KubeConfig["applyToHTTPSOptions"]>[0]): Promise<void> {
    try {
      this.checkCredentialFiles();
      await super.applyToHTTPSOptions(opts);
    } catch (err) {
      throw this.credentialError(err);
    }
  }

  override async applySecurityAuthentication(context: Parameters<KubeConfig["applySecurityAuthentication"]>[0]): Promise<void> {
    try {
      this.checkCredentialFiles();
      await super.applySecurityAuthentication(context);
    } catch (err) {
      throw this.credentialError(err);
    }
  }
}
