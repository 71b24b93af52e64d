import {
  DEFAULT_CONTROLLER_NAMESPACE,
  PLUGIN_CONFIG_KEYS,
  PLUGIN_CONFIG_MAP_NAME,
  type PluginConfig,
  type PluginEntryError,
  type PluginKind,
  type RegisteredPlugin,
} from "@/lib/plugins/config";
import { findKnownPluginByLocation, findKnownPluginByLooseName } from "@/lib/plugins/known-plugins";
import type { PluginReference, PluginUsage, ReferencingKind } from "@/lib/plugins/usage";

export type FindingSeverity = "critical" | "warning" | "info";

export type PluginFindingKind =
  | "invalid-entry"
  | "invalid-yaml"
  | "referenced-not-registered"
  | "registered-unused"
  | "missing-sha256"
  | "duplicate-name"
  | "drift-across-clusters"
  | "restart-needed"
  | "disabled-on-non-step"
  | "key-mismatch-hint"
  /** Measured traffic share does not follow the applied weight (from the plugins service, needs Prometheus). */
  | "stuck-router";

export interface AffectedObject {
  cluster: string;
  namespace?: string;
  name?: string;
  plugin?: string;
  resourceKind?: ReferencingKind | "ConfigMap";
}

export interface Finding {
  /** Stable across runs for the same cluster, object and plugin. */
  id: string;
  severity: FindingSeverity;
  kind: PluginFindingKind;
  title: string;
  detail: string;
  affected: AffectedObject[];
  fix: string;
  /** For `key-mismatch-hint`: the plugin name to use instead. */
  suggestedName?: string;
}

export interface DerivePluginFindingsInput {
  cluster: string;
  config: PluginConfig;
  usage: PluginUsage;
  controllerStartedAt?: string | Date;
  /** Where the controller runs; only needed when the ConfigMap is missing. Default `argo-rollouts`. */
  controllerNamespace?: string;
}

const KIND_LABEL: Readonly<Record<PluginKind, string>> = {
  trafficRouter: "traffic-router",
  metricProvider: "metric-provider",
  step: "step",
};

const UNMARSHAL_LABEL: Readonly<Record<PluginKind, string>> = {
  trafficRouter: "traffic router",
  metricProvider: "metric provider",
  step: "step",
};

const SEVERITY_RANK: Readonly<Record<FindingSeverity, number>> = { critical: 0, warning: 1, info: 2 };

const FIELD_FIX: Readonly<Record<string, string>> = {
  name: 'Give the entry a name of the form <org>/<name> (org: letters, digits, "-"; name: letters, digits, "_", "-", "."), e.g. `argoproj-labs/gatewayAPI`, and use the same key in the Rollouts.',
  location:
    "Point location at an https:// URL of the plugin binary or a file:// path inside the controller image, e.g. `file:///plugins/<binary>`; other schemes such as s3:// or ftp:// are never fetched.",
  sha256: "Set sha256 to the lower-case 64-hex digest of the binary (`curl -sL <location> | sha256sum`) or remove it.",
  args: 'Write args as a list of strings, e.g. `args: ["-logformat", "json"]`.',
  headersFrom: "Write headersFrom as a list of Secret references, e.g. `headersFrom: [{secretRef: {name: plugin-dl-creds}}]`.",
  disabled: "Set disabled to an unquoted true or false.",
};

const ENTRY_FIX = 'Replace the item with a mapping: "- name: <org>/<name>" and "location: <url>".';

interface ClusterContext {
  cluster: string;
  namespace: string;
  configMapName: string;
  configMapLabel: string;
  restartCommand: string;
}

function describeClusterContext(input: DerivePluginFindingsInput): ClusterContext {
  const namespace = input.config.configMap?.namespace ?? input.controllerNamespace ?? DEFAULT_CONTROLLER_NAMESPACE;
  const configMapName = input.config.configMap?.name ?? PLUGIN_CONFIG_MAP_NAME;
  return {
    cluster: input.cluster,
    namespace,
    configMapName,
    configMapLabel: `${configMapName} (namespace ${namespace})`,
    restartCommand: `kubectl rollout restart deployment -n ${namespace} argo-rollouts`,
  };
}

function affectConfigMap(ctx: ClusterContext, plugin?: string): AffectedObject {
  return {
    cluster: ctx.cluster,
    namespace: ctx.namespace,
    name: ctx.configMapName,
    resourceKind: "ConfigMap",
    ...(plugin === undefined ? {} : { plugin }),
  };
}

function affectReferences(cluster: string, references: readonly PluginReference[]): AffectedObject[] {
  const seen = new Set<string>();
  const affected: AffectedObject[] = [];
  for (const { resource, plugin } of references) {
    const key = `${resource.kind}/${resource.namespace ?? ""}/${resource.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    affected.push({
      cluster,
      ...(resource.namespace === undefined ? {} : { namespace: resource.namespace }),
      name: resource.name,
      plugin,
      resourceKind: resource.kind,
    });
  }
  return affected;
}

function describeResources(affected: readonly AffectedObject[]): string {
  return affected.map((object) => `${object.resourceKind} ${object.namespace ? `${object.namespace}/` : ""}${object.name}`).join(", ");
}

function sortBySeverity(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
}

function describeKeyError(ctx: ClusterContext, error: PluginEntryError): Finding {
  return {
    id: `invalid-yaml/${ctx.cluster}/${error.key}`,
    severity: "critical",
    kind: "invalid-yaml",
    title: `data.${error.key} in ${ctx.configMapName} is not a valid plugin list`,
    detail:
      `${error.reason}. The controller reads this key at start-up and exits ("failed to unmarshal ` +
      `${UNMARSHAL_LABEL[error.kind]} plugins while initializing"), so it crash-loops until the key parses; ` +
      `none of its plugins can be listed here.`,
    affected: [affectConfigMap(ctx)],
    fix:
      `Rewrite data.${error.key} in ${ctx.configMapLabel} as a YAML list of entries ("- name: <org>/<name>" ` +
      `with "location: <url>" on the next line, indented to match), then restart the controller: ${ctx.restartCommand}`,
  };
}

function describeEntryError(ctx: ClusterContext, error: PluginEntryError): Finding {
  const field = error.field ?? "entry";
  const what = error.name ?? `#${error.index ?? 0}`;
  const specificFix = (error.field === null ? undefined : FIELD_FIX[error.field.split(/[.[]/)[0]]) ?? ENTRY_FIX;
  return {
    id: `invalid-entry/${ctx.cluster}/${error.key}[${error.index ?? 0}]/${field}`,
    severity: "critical",
    kind: "invalid-entry",
    title: `Invalid ${KIND_LABEL[error.kind]} plugin entry ${what}: ${field}`,
    detail:
      `${error.reason}. The controller validates and downloads every plugin entry at start-up and exits on the ` +
      `first invalid one (log.Fatalf), so it crash-loops until this is fixed and no Rollout is reconciled meanwhile.`,
    affected: [affectConfigMap(ctx, error.name ?? undefined)],
    fix:
      `In data.${error.key}[${error.index ?? 0}] of ${ctx.configMapLabel}: ${specificFix} ` +
      `Then restart the controller: ${ctx.restartCommand}`,
  };
}

function describeDuplicates(ctx: ClusterContext, name: string, entries: readonly RegisteredPlugin[]): Finding {
  const differs = new Set(entries.map((entry) => `${entry.location}\u0000${entry.sha256 ?? ""}`)).size > 1;
  const listed = entries.map((entry) => `${PLUGIN_CONFIG_KEYS[entry.kind]}[${entry.index}] → ${entry.location}`);
  const positions = entries.map((entry) => `data.${PLUGIN_CONFIG_KEYS[entry.kind]}[${entry.index}]`);
  return {
    id: `duplicate-name/${ctx.cluster}/${name}`,
    severity: differs ? "critical" : "warning",
    kind: "duplicate-name",
    title: `${name} is registered ${entries.length} times`,
    detail:
      `${listed.join("; ")}. Every entry is downloaded to the same file, plugin-bin/${name}, so the last one ` +
      `fetched overwrites the others while look-ups use the first matching entry` +
      (differs
        ? "; with different locations or sha256, the binary that runs is not the one its entry names."
        : "; the entries are identical, so this is redundant rather than broken."),
    affected: [affectConfigMap(ctx, name)],
    fix:
      (differs
        ? `Keep only the ${name} entry whose location you intend to run and delete the others among ${positions.join(", ")} `
        : `Delete ${positions.slice(1).join(", ")} `) + `in ${ctx.configMapLabel}, then restart the controller: ${ctx.restartCommand}`,
  };
}

function describeDisabledOnNonStep(ctx: ClusterContext, plugin: RegisteredPlugin): Finding {
  const key = PLUGIN_CONFIG_KEYS[plugin.kind];
  return {
    id: `disabled-on-non-step/${ctx.cluster}/${plugin.kind}/${plugin.name}`,
    severity: "warning",
    kind: "disabled-on-non-step",
    title: `disabled is set on ${KIND_LABEL[plugin.kind]} plugin ${plugin.name}`,
    detail:
      `Upstream accepts disabled only for step plugins; it does not switch off a ${KIND_LABEL[plugin.kind]} ` +
      `plugin, so Rollouts and analyses that reference ${plugin.name} keep using it.`,
    affected: [affectConfigMap(ctx, plugin.name)],
    fix:
      `Remove disabled from data.${key}[${plugin.index}] in ${ctx.configMapLabel}. To stop using the plugin, ` +
      `remove its key from the resources that reference it, then the entry, and restart the controller: ${ctx.restartCommand}`,
  };
}

function describeMissingSha256(ctx: ClusterContext, plugin: RegisteredPlugin): Finding {
  const key = PLUGIN_CONFIG_KEYS[plugin.kind];
  const plainHttp = plugin.locationScheme === "http" ? " over plain http" : "";
  return {
    id: `missing-sha256/${ctx.cluster}/${plugin.kind}/${plugin.name}`,
    severity: "warning",
    kind: "missing-sha256",
    title: `${plugin.name} is downloaded without a sha256 check`,
    detail:
      `${plugin.location} is fetched${plainHttp} at every controller start and executed inside the controller pod ` +
      `with its ServiceAccount. sha256 is only checked for http(s) downloads and this entry has none, so a ` +
      `replaced or truncated download runs unchecked.`,
    affected: [affectConfigMap(ctx, plugin.name)],
    fix:
      `Add \`sha256: <digest>\` (from \`curl -sL ${plugin.location} | sha256sum\`) to data.${key}[${plugin.index}] ` +
      `in ${ctx.configMapLabel}, then restart the controller: ${ctx.restartCommand}`,
  };
}

function describeUnused(ctx: ClusterContext, plugin: RegisteredPlugin): Finding {
  const key = PLUGIN_CONFIG_KEYS[plugin.kind];
  const users = plugin.kind === "metricProvider" ? "AnalysisTemplate" : "Rollout";
  return {
    id: `registered-unused/${ctx.cluster}/${plugin.kind}/${plugin.name}`,
    severity: "info",
    kind: "registered-unused",
    title: `${plugin.name} is registered but unused`,
    detail:
      `No ${users} in this cluster references ${KIND_LABEL[plugin.kind]} plugin ${plugin.name}. The controller ` +
      `still fetches it (${plugin.location}) at every start-up, and a failed fetch stops the controller.`,
    affected: [affectConfigMap(ctx, plugin.name)],
    fix:
      `If it is no longer needed, remove the ${plugin.name} entry from data.${key} in ${ctx.configMapLabel}, ` +
      `then restart the controller: ${ctx.restartCommand}`,
  };
}

interface NameSuggestion {
  name: string;
  reason: string;
  fix: string;
  /** When true, registering the referenced name as-is would not work either. */
  exclusive: boolean;
}

/** A registered or well-known name the reference probably meant (case, org or data key differ). */
function suggestName(
  ctx: ClusterContext,
  kind: PluginKind,
  plugin: string,
  plugins: readonly RegisteredPlugin[],
  affected: readonly AffectedObject[],
): NameSuggestion | null {
  const key = PLUGIN_CONFIG_KEYS[kind];
  const where = describeResources(affected);
  const otherKind = plugins.find((candidate) => candidate.name === plugin && candidate.kind !== kind);
  if (otherKind) {
    const otherKey = PLUGIN_CONFIG_KEYS[otherKind.kind];
    return {
      name: plugin,
      reason: `${plugin} is registered under data.${otherKey}, but it is referenced as a ${KIND_LABEL[kind]} plugin, which is looked up in data.${key} only.`,
      fix: `Move the ${plugin} entry from data.${otherKey} to data.${key} in ${ctx.configMapLabel} (if the binary is a ${KIND_LABEL[kind]} plugin), then restart the controller: ${ctx.restartCommand}`,
      exclusive: false,
    };
  }
  const sameKind = plugins.filter((candidate) => candidate.kind === kind);
  const byCase = sameKind.find((candidate) => candidate.name.toLowerCase() === plugin.toLowerCase());
  const shortName = plugin.slice(plugin.indexOf("/") + 1).toLowerCase();
  const byOrg = sameKind.find((candidate) => candidate.shortName.toLowerCase() === shortName);
  const registered = byCase ?? byOrg;
  if (registered) {
    const difference = byCase ? "letter case" : "org";
    return {
      name: registered.name,
      reason: `${plugin} differs only by ${difference} from the registered ${registered.name}; plugin names are matched exactly.`,
      fix: `Change the key \`${plugin}\` to \`${registered.name}\` in ${where}.`,
      exclusive: false,
    };
  }
  const known = kind === "trafficRouter" ? findKnownPluginByLooseName(plugin) : null;
  if (known && known.name !== plugin) {
    return {
      name: known.name,
      reason: `The ${known.repo} plugin reads its configuration under \`${known.name}\`, not \`${plugin}\`.`,
      fix:
        `Register it as \`- name: ${known.name}\` in data.${key} of ${ctx.configMapLabel} and use \`${known.name}\` ` +
        `as the key in ${where}, then restart the controller: ${ctx.restartCommand}`,
      exclusive: true,
    };
  }
  return null;
}

function describeUnregistered(
  ctx: ClusterContext,
  input: DerivePluginFindingsInput,
  kind: PluginKind,
  plugin: string,
  references: readonly PluginReference[],
): Finding[] {
  const key = PLUGIN_CONFIG_KEYS[kind];
  const affected = affectReferences(ctx.cluster, references);
  const suggestion = suggestName(ctx, kind, plugin, input.config.plugins, affected);
  const known = kind === "trafficRouter" ? findKnownPluginByLooseName(plugin) : null;
  const release = known && known.name === plugin ? ` (release binaries: https://github.com/${known.repo}/releases)` : "";
  const missingWhere = input.config.configMap
    ? `data.${key} in ${ctx.configMapName} has no entry with that exact name`
    : `ConfigMap ${ctx.configMapName} does not exist in namespace ${ctx.namespace}`;
  const register = input.config.configMap
    ? `Add \`- name: ${plugin}\` with its location${release} to data.${key} in ${ctx.configMapLabel}`
    : `Create ConfigMap ${ctx.configMapLabel} with \`- name: ${plugin}\` and its location${release} under data.${key}`;
  const findings: Finding[] = [
    {
      id: `referenced-not-registered/${ctx.cluster}/${kind}/${plugin}`,
      severity: "critical",
      kind: "referenced-not-registered",
      title: `${plugin} is used but not registered`,
      detail:
        `${describeResources(affected)} reference${affected.length === 1 ? "s" : ""} ${KIND_LABEL[kind]} plugin ` +
        `${plugin}, but ${missingWhere}. Every time the controller needs the plugin it fails with ` +
        `"plugin ${plugin} not configured in configmap".` +
        (suggestion ? ` Did you mean ${suggestion.name}?` : ""),
      affected,
      fix: suggestion?.exclusive
        ? suggestion.fix
        : `${suggestion ? `${suggestion.fix} Or: ` : ""}${register} and restart the controller: ${ctx.restartCommand}`,
    },
  ];
  if (suggestion) {
    findings.push({
      id: `key-mismatch-hint/${ctx.cluster}/${kind}/${plugin}`,
      severity: "warning",
      kind: "key-mismatch-hint",
      title: `${plugin} looks like ${suggestion.name}`,
      detail: suggestion.reason,
      affected,
      fix: suggestion.fix,
      suggestedName: suggestion.name,
    });
  }
  return findings;
}

/** A registered entry whose binary (known from its release URL) reads a different key than the entry's name. */
function describeRegisteredKeyMismatch(ctx: ClusterContext, plugin: RegisteredPlugin): Finding | null {
  if (plugin.kind !== "trafficRouter") return null;
  const known = findKnownPluginByLocation(plugin.location);
  if (!known || known.name === plugin.name) return null;
  return {
    id: `key-mismatch-hint/${ctx.cluster}/registered/${plugin.name}`,
    severity: "warning",
    kind: "key-mismatch-hint",
    title: `${plugin.name} should be registered as ${known.name}`,
    detail:
      `${plugin.name} downloads the ${known.repo} plugin, which reads its configuration from ` +
      `trafficRouting.plugins["${known.name}"]. Under ${plugin.name} the controller starts the plugin, but the ` +
      `plugin finds no configuration of its own in the Rollout.`,
    affected: [affectConfigMap(ctx, plugin.name)],
    fix:
      `Rename the entry data.trafficRouterPlugins[${plugin.index}] in ${ctx.configMapLabel} to \`${known.name}\`, ` +
      `use the same key in the Rollouts' trafficRouting.plugins, then restart the controller: ${ctx.restartCommand}`,
    suggestedName: known.name,
  };
}

function describeRestartNeeded(ctx: ClusterContext, input: DerivePluginFindingsInput): Finding | null {
  const updatedAt = input.config.configMap?.updatedAt;
  if (updatedAt === undefined || input.controllerStartedAt === undefined) return null;
  const startedAt = new Date(input.controllerStartedAt);
  if (Number.isNaN(startedAt.getTime()) || Date.parse(updatedAt) <= startedAt.getTime()) return null;
  return {
    id: `restart-needed/${ctx.cluster}`,
    severity: "warning",
    kind: "restart-needed",
    title: "The controller has not loaded the current plugin configuration",
    detail:
      `${ctx.configMapName} changed at ${updatedAt}, after the controller started at ${startedAt.toISOString()}. ` +
      `Plugins are read and downloaded only at start-up (there is no ConfigMap watch), so the running ` +
      `controller still uses the previous plugin list.`,
    affected: [affectConfigMap(ctx)],
    fix:
      `Restart the controller: ${ctx.restartCommand}` +
      (input.config.crashLoops
        ? ". Fix the critical ConfigMap findings first: with the current ConfigMap the restarted controller exits at start-up."
        : ""),
  };
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Plugin findings for one cluster: the ConfigMap as upstream `utils/config/config.go` and
 * `utils/plugin/downloader.go` would load it, crossed with the plugins Rollouts and analysis templates
 * reference (a missing name is a guaranteed `plugin <name> not configured in configmap`), and the controller
 * start time (plugins load once, at start-up). Ordered critical → warning → info.
 */
export function derivePluginFindings(input: DerivePluginFindingsInput): Finding[] {
  const ctx = describeClusterContext(input);
  const { plugins, entryErrors } = input.config;
  const findings: Finding[] = [];

  for (const error of entryErrors) {
    findings.push(error.code === "invalid-yaml" ? describeKeyError(ctx, error) : describeEntryError(ctx, error));
  }

  for (const [name, entries] of groupBy(plugins, (plugin) => plugin.name)) {
    if (entries.length > 1) findings.push(describeDuplicates(ctx, name, entries));
  }

  // A key that did not parse, or an entry that failed validation, is not "unregistered": its own finding explains it.
  const unreadableKinds = new Set(entryErrors.filter((e) => e.code === "invalid-yaml").map((e) => e.kind));
  const invalidNames = new Set(entryErrors.filter((e) => e.name !== null).map((e) => `${e.kind}/${e.name}`));
  const registered = new Set(plugins.map((plugin) => `${plugin.kind}/${plugin.name}`));
  const referencesByPlugin = groupBy(input.usage.references, (ref) => `${ref.kind}/${ref.plugin}`);
  for (const [key, references] of referencesByPlugin) {
    const { kind, plugin } = references[0];
    if (registered.has(key) || invalidNames.has(key) || unreadableKinds.has(kind)) continue;
    findings.push(...describeUnregistered(ctx, input, kind, plugin, references));
  }

  const seen = new Set<string>();
  for (const plugin of plugins) {
    const key = `${plugin.kind}/${plugin.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const mismatch = describeRegisteredKeyMismatch(ctx, plugin);
    if (mismatch) findings.push(mismatch);
    if (plugin.disabled && plugin.kind !== "step") findings.push(describeDisabledOnNonStep(ctx, plugin));
    if (plugin.locationScheme !== "file" && plugin.sha256 === null) findings.push(describeMissingSha256(ctx, plugin));
    if (!referencesByPlugin.has(key)) findings.push(describeUnused(ctx, plugin));
  }

  const restart = describeRestartNeeded(ctx, input);
  if (restart) findings.push(restart);
  return sortBySeverity(findings);
}

interface Registration {
  ctx: ClusterContext;
  plugin: RegisteredPlugin;
}

function describeDrift(kind: PluginKind, name: string, registrations: readonly Registration[]): Finding | null {
  const variantOf = ({ plugin }: Registration): string => `${plugin.location}\u0000${plugin.sha256 ?? ""}`;
  const variants = [...groupBy(registrations, variantOf).values()];
  if (variants.length < 2) return null;
  const majority = variants.reduce((best, variant) => (variant.length > best.length ? variant : best));
  const target = majority[0].plugin;
  const outliers = registrations.filter((registration) => variantOf(registration) !== variantOf(majority[0]));
  const key = PLUGIN_CONFIG_KEYS[kind];
  return {
    id: `drift-across-clusters/${kind}/${name}`,
    severity: "warning",
    kind: "drift-across-clusters",
    title: `${name} differs across clusters`,
    detail:
      registrations.map(({ ctx, plugin }) => `${ctx.cluster}: ${plugin.location} (sha256 ${plugin.sha256 ?? "none"})`).join("; ") +
      ". The same Rollout can behave differently depending on the cluster it runs in.",
    affected: registrations.map(({ ctx }) => affectConfigMap(ctx, name)),
    fix:
      `Use one location and sha256 for ${name} in data.${key} of ${PLUGIN_CONFIG_MAP_NAME} everywhere, e.g. ` +
      `location ${target.location}` +
      (target.sha256 ? ` with sha256 ${target.sha256}` : "") +
      `; change it in ${outliers.map(({ ctx }) => ctx.cluster).join(", ")} and restart each changed controller: ` +
      outliers.map(({ ctx }) => `${ctx.restartCommand} (${ctx.cluster})`).join("; "),
  };
}

/**
 * Findings for a fleet: every cluster's {@link derivePluginFindings}, plus `drift-across-clusters` for a
 * plugin registered under the same name and kind with a different location or sha256 in different clusters.
 */
export function deriveFleetPluginFindings(perCluster: readonly DerivePluginFindingsInput[]): Finding[] {
  const findings = perCluster.flatMap((input) => derivePluginFindings(input));
  const registrations: Registration[] = [];
  for (const input of perCluster) {
    const ctx = describeClusterContext(input);
    const seen = new Set<string>();
    for (const plugin of input.config.plugins) {
      const key = `${plugin.kind}/${plugin.name}`;
      if (seen.has(key)) continue; // duplicates inside one cluster are their own finding
      seen.add(key);
      registrations.push({ ctx, plugin });
    }
  }
  for (const group of groupBy(registrations, ({ plugin }) => `${plugin.kind}/${plugin.name}`).values()) {
    const drift = describeDrift(group[0].plugin.kind, group[0].plugin.name, group);
    if (drift) findings.push(drift);
  }
  return sortBySeverity(findings);
}
