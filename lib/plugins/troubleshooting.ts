export interface PluginErrorExplanation {
  /** Which rule matched, stable for tests and analytics. */
  code: string;
  cause: string;
  fix: string;
  docs?: string;
}

export type PluginRpcMethod =
  "SetWeight" | "VerifyWeight" | "UpdateHash" | "SetHeaderRoute" | "SetMirrorRoute" | "RemoveManagedRoutes" | "Start" | "Unknown";

const PLUGINS_DOCS = "https://argo-rollouts.readthedocs.io/en/stable/features/traffic-management/plugins/";
const PLUGIN_SYSTEM_DOCS = "https://argo-rollouts.readthedocs.io/en/stable/plugins/";
const RESTART = "kubectl rollout restart deployment -n argo-rollouts argo-rollouts";
const CONTROLLER_LOGS = "kubectl logs -n argo-rollouts deploy/argo-rollouts | grep -i plugin";

interface Rule {
  code: string;
  matches: (message: string) => boolean;
  explain: (message: string) => Omit<PluginErrorExplanation, "code">;
}

function has(...patterns: RegExp[]): (message: string) => boolean {
  return (message) => patterns.some((pattern) => pattern.test(message));
}

function all(...patterns: RegExp[]): (message: string) => boolean {
  return (message) => patterns.every((pattern) => pattern.test(message));
}

const DOWNLOAD = /failed to download (plugin|file)/i;
const VIA_PLUGIN = /via plugin|rpc call error/i;

function quotePluginName(message: string): string {
  return /plugin (\S+) not configured in configmap/i.exec(message)?.[1] ?? "<org>/<name>";
}

/** Ordered: root causes that also appear inside generic wrappers come first. */
const RULES: readonly Rule[] = [
  {
    code: "not-configured",
    matches: has(/not configured in configmap/i),
    explain: (message) => {
      const name = quotePluginName(message);
      return {
        cause:
          `The resource references plugin ${name}, but the controller's loaded configuration has no entry with that ` +
          "exact name for this plugin type. Names are matched case-sensitively, and the ConfigMap is read only at start-up.",
        fix:
          `Add \`- name: ${name}\` with its location to the matching data key (trafficRouterPlugins, ` +
          `metricProviderPlugins or stepPlugins) of argo-rollouts-config, or fix the key in the Rollout ` +
          `(e.g. \`hashicorp/consul\`, not \`argoproj-labs/consul\`), then restart the controller: ${RESTART}`,
        docs: PLUGINS_DOCS,
      };
    },
  },
  {
    code: "stdout-already-set",
    matches: has(/Stdout already set/i),
    explain: () => ({
      cause:
        "A controller bug started the same plugin process twice and go-plugin refused to attach stdout again " +
        "(argoproj/argo-rollouts#3918); it was fixed by caching the plugin RPC client (#4613).",
      fix: `Upgrade Argo Rollouts to a release that includes argoproj/argo-rollouts#4613. Until then, restarting the controller clears it: ${RESTART}`,
      docs: "https://github.com/argoproj/argo-rollouts/issues/3918",
    }),
  },
  {
    code: "exec-format-error",
    matches: has(/exec format error/i),
    explain: () => ({
      cause:
        "The plugin file cannot be executed on the controller's node: it was built for another OS or CPU " +
        "architecture (e.g. darwin, or arm64 on amd64 nodes), or the location served an archive or HTML page " +
        "instead of the binary.",
      fix:
        "Point location at the linux binary for the nodes' architecture (`kubectl get nodes -L kubernetes.io/arch`), " +
        "e.g. `…-linux-amd64`, not a .tar.gz; update sha256 to match, then restart the controller: " +
        RESTART,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "invalid-location-scheme",
    matches: has(/plugin location must be of http\(s\) or file scheme/i, /failed to parse plugin location/i),
    explain: () => ({
      cause: "A plugin location is not an http://, https:// or file:// URL; the controller exits at start-up.",
      fix: `Use an https:// URL to the binary or a file:// path inside the controller image, then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "sha256-mismatch",
    matches: has(/sha256 .*does not match/i, /checksum/i, /sha256 mismatch/i),
    explain: () => ({
      cause:
        "The downloaded file's SHA-256 differs from the entry's sha256: the value is wrong or upper-case, or the " +
        "URL now serves a different file (another release, another architecture, an error page). The controller " +
        "exits at start-up and crash-loops.",
      fix:
        "Recompute it with `curl -sL <location> | sha256sum` and set the lower-case digest as sha256 in " +
        `argo-rollouts-config, then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "download-unauthorized",
    matches: (message) => DOWNLOAD.test(message) && /\b(401|403)\b|unauthori[sz]ed|forbidden/i.test(message),
    explain: () => ({
      cause:
        "The plugin host refused the download (401/403): the location is private and no valid credentials were " +
        "sent. The controller exits at start-up and crash-loops.",
      fix:
        "Create a Secret in the controller namespace whose keys are HTTP headers (e.g. `Authorization: Bearer <token>`), " +
        `reference it with \`headersFrom: [{secretRef: {name: <secret>}}]\` on the entry, then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "download-not-found",
    matches: (message) => DOWNLOAD.test(message) && /\b404\b|not found/i.test(message),
    explain: () => ({
      cause:
        "The location returned 404: the release tag or asset name in the URL does not exist. The controller exits " +
        "at start-up and crash-loops.",
      fix: `Copy the exact asset URL from the plugin's releases page into location, then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "download-network",
    matches: (message) =>
      DOWNLOAD.test(message) &&
      /no such host|dial tcp|i\/o timeout|connection refused|x509|tls handshake|context deadline exceeded|proxyconnect/i.test(message),
    explain: () => ({
      cause:
        "The controller pod could not reach the plugin host (DNS, egress policy, proxy or TLS). The controller exits " +
        "at start-up and crash-loops.",
      fix:
        "Allow egress from the controller pod to the host (or set HTTPS_PROXY on the controller), or ship the binary " +
        `in the image or an init container and use a file:// location; then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "download-failed",
    matches: has(DOWNLOAD, /failed to find downloaded plugin/i),
    explain: () => ({
      cause:
        "Downloading a plugin listed in argo-rollouts-config failed. Plugins are fetched at controller start-up and " +
        "any failure is fatal, so the controller crash-loops.",
      fix:
        "Check that the location URL is reachable from the controller pod and serves the binary " +
        `(\`curl -sIL <location>\` from the pod's network), fix the entry, then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "file-plugin-missing",
    matches: has(/failed to copy plugin from/i, /failed to find filebased plugin/i),
    explain: () => ({
      cause:
        "A file:// location does not exist in the controller container (file:// is resolved inside the pod, " +
        "relative paths from its working directory).",
      fix:
        "Mount or copy the binary into the controller container (custom image, or an init container writing to a " +
        "shared emptyDir) at the path in location, then restart the controller: " +
        RESTART,
      docs: PLUGIN_SYSTEM_DOCS,
    }),
  },
  {
    code: "invalid-plugin-name",
    matches: has(/must be in the format of <namespace>\/<(name|plugin)>/i),
    explain: () => ({
      cause: "A plugin name in argo-rollouts-config is not of the form <org>/<name>; the controller exits at start-up.",
      fix: `Rename the entry to <org>/<name> (e.g. argoproj-labs/gatewayAPI) and use the same key in the Rollouts, then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "invalid-config-yaml",
    matches: has(/failed to unmarshal .*plugins while initializing/i),
    explain: () => ({
      cause: "A plugin list in argo-rollouts-config is not valid YAML or not a list of entries; the controller exits at start-up.",
      fix: `Fix the YAML of trafficRouterPlugins / metricProviderPlugins / stepPlugins (a list of "- name: …" entries), then restart the controller: ${RESTART}`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "plugin-exited",
    matches: has(/plugin exited before we could connect/i, /Unrecognized remote plugin message/i),
    explain: () => ({
      cause:
        "The plugin process started but did not complete the go-plugin handshake: it crashed on start-up, or the " +
        "binary is not an Argo Rollouts plugin of this type (wrong file, or a traffic-router binary registered as " +
        "a metric or step plugin).",
      fix: `Read the plugin's own output in the controller logs (\`${CONTROLLER_LOGS}\`), check the location points at the right plugin binary, then restart the controller: ${RESTART}`,
      docs: PLUGIN_SYSTEM_DOCS,
    }),
  },
  {
    code: "ping-failed",
    matches: has(/could not ping plugin/i),
    explain: () => ({
      cause:
        "The plugin process stopped answering (it crashed, panicked or hung). The controller killed it and " +
        "starts a new one on the next reconcile.",
      fix:
        `Look for the plugin's panic or error in the controller logs (\`${CONTROLLER_LOGS}\`); if it recurs, ` +
        "upgrade the plugin (known panics: gatewayapi #95, #119) or raise the controller's memory limit.",
      docs: PLUGIN_SYSTEM_DOCS,
    }),
  },
  {
    code: "plugin-forbidden",
    matches: all(VIA_PLUGIN, /forbidden|cannot (get|list|watch|update|patch|create)/i),
    explain: () => ({
      cause:
        "The plugin was denied access to the resources it manages. Plugins run inside the controller pod with the " +
        "controller's ServiceAccount, so that account needs the plugin's RBAC.",
      fix:
        "Add the plugin's rules to the argo-rollouts ClusterRole, e.g. for gatewayAPI: apiGroups " +
        "[gateway.networking.k8s.io], resources [httproutes, grpcroutes, tcproutes, tlsroutes], verbs " +
        "[get, list, update, patch].",
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "rpc-call-error",
    matches: has(/rpc call error/i),
    explain: () => ({
      cause:
        "The net/rpc connection to the plugin process failed mid-call (e.g. `connection is shut down`, " +
        "`unexpected EOF`): the plugin crashed or was killed.",
      fix: `Find the crash in the controller logs (\`${CONTROLLER_LOGS}\`); the next reconcile restarts the plugin. If it repeats, upgrade the plugin.`,
      docs: PLUGIN_SYSTEM_DOCS,
    }),
  },
  {
    code: "unable-to-start",
    matches: has(/unable to start plugin system/i, /failed to get (traffic router|metric|step) plugin/i),
    explain: () => ({
      cause:
        "The controller could not start or connect to the plugin process (exec, handshake, InitPlugin or Ping " +
        "failed). No event or condition is written; the Rollout is requeued and rollout_reconcile_error grows.",
      fix: `Read the text after "unable to start plugin system:" and the controller logs (\`${CONTROLLER_LOGS}\`); check the binary exists for the node architecture and the ConfigMap entry is right, then restart the controller: ${RESTART}`,
      docs: PLUGIN_SYSTEM_DOCS,
    }),
  },
  {
    code: "set-weight-failed",
    matches: has(/failed to set weight via plugin/i),
    explain: () => ({
      cause:
        "The plugin's SetWeight returned an error, so the traffic split was not changed (Warning event " +
        "TrafficRoutingError) and the Rollout does not advance. Typical causes: the route named in the plugin " +
        "config does not exist, or weights do not add up (Contour needs 100).",
      fix:
        "Check the Rollout's trafficRouting.plugins config against the actual routes (name, namespace) and the " +
        "error text after `via plugin:`; fix the route or the config.",
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "verify-weight-failed",
    matches: has(/failed to verify weight/i),
    explain: () => ({
      cause:
        "The plugin's VerifyWeight returned an error (Warning event WeightVerifyError). The controller records " +
        "weights.verified and keeps reconciling, retrying the check.",
      fix: "Check that the routing resources show the weight the controller set and read the error text after the colon; persistent failures at the final step block completion.",
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "update-hash-failed",
    matches: has(/failed to update hash via plugin/i),
    explain: () => ({
      cause:
        "The plugin's UpdateHash failed. It runs before SetWeight on every reconcile, so weights are not " +
        "changed and status is not saved on that pass; there is no event, only rollout_reconcile_error.",
      fix: `Read the error text after \`via plugin:\` and the controller logs (\`${CONTROLLER_LOGS}\`); usually the canary/stable Services or subsets named in the plugin config are missing.`,
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "set-header-route-failed",
    matches: has(/failed to set header route via plugin/i),
    explain: () => ({
      cause:
        "The plugin could not apply a setHeaderRoute step. Not every plugin supports header routes (gatewayAPI: " +
        "HTTP/GRPC routes only; Contour and OpenShift: no-op), and the route must be listed in managedRoutes.",
      fix: "Check the step's name is in trafficRouting.managedRoutes and that the plugin supports header routes for the route type in its config; no event is written, see the controller logs.",
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "set-mirror-route-failed",
    matches: has(/failed to set mirror route via plugin/i),
    explain: () => ({
      cause:
        "The plugin could not apply a setMirrorRoute step (many plugins, gatewayAPI included, treat mirroring as a no-op or do not support it).",
      fix: "Check the step's name is in trafficRouting.managedRoutes and that the plugin implements mirror routes; otherwise remove the setMirrorRoute step.",
      docs: PLUGINS_DOCS,
    }),
  },
  {
    code: "remove-managed-routes-failed",
    matches: has(/failed to remove managed routes via plugin/i),
    explain: () => ({
      cause:
        "The plugin could not remove the header/mirror routes it added; this runs when a rollout is fully " +
        "promoted or aborted, so temporary routes may be left on the route resources.",
      fix: "Inspect the route resources for leftover canary routes and remove them by hand if needed; read the error text after `via plugin:` and the controller logs.",
      docs: PLUGINS_DOCS,
    }),
  },
];

/**
 * Maps a plugin error (event message, condition, controller log line) to cause and fix, for the messages of
 * upstream `rollout/trafficrouting/plugin/plugin.go`, `utils/plugin/downloader.go`, `utils/config/config.go`
 * and go-plugin. Null when no rule knows the text.
 */
export function explainPluginError(message: string): PluginErrorExplanation | null {
  const rule = RULES.find((candidate) => candidate.matches(message));
  return rule ? { code: rule.code, ...rule.explain(message) } : null;
}

const METHOD_PATTERNS: ReadonlyArray<{ method: Exclude<PluginRpcMethod, "Unknown">; pattern: RegExp }> = [
  { method: "SetWeight", pattern: /failed to set weight via plugin|\bSetWeight rpc call error/i },
  { method: "VerifyWeight", pattern: /failed to verify weight|\bVerifyWeight rpc call error/i },
  { method: "UpdateHash", pattern: /failed to update hash via plugin|\bUpdateHash rpc call error/i },
  { method: "SetHeaderRoute", pattern: /failed to set header route via plugin|\bSetHeaderRoute rpc call error/i },
  { method: "SetMirrorRoute", pattern: /failed to set mirror route via plugin|\bSetMirrorRoute rpc call error/i },
  {
    method: "RemoveManagedRoutes",
    pattern: /failed to remove managed routes via plugin|\bRemoveManagedRoutes rpc call error/i,
  },
  {
    method: "Start",
    pattern:
      /unable to start plugin system|could not ping plugin|failed to get (traffic router|metric|step) plugin|not configured in configmap|\bInitPlugin rpc call error|Stdout already set|exec format error/i,
  },
];

/**
 * Which traffic-router RPC an error came from, by the wrapper upstream puts around it
 * (`failed to set weight via plugin: …`, `Failed to verify weight: …` on WeightVerifyError events,
 * `<Method> rpc call error: …`). The outermost (earliest) wrapper wins.
 */
export function classifyPluginRpcMethod(message: string): PluginRpcMethod {
  let best: { method: PluginRpcMethod; at: number } = { method: "Unknown", at: Number.POSITIVE_INFINITY };
  for (const { method, pattern } of METHOD_PATTERNS) {
    const at = message.search(pattern);
    if (at !== -1 && at < best.at) best = { method, at };
  }
  return best.method;
}
