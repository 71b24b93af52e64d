import { parseDocument } from "yaml";
import { z } from "zod";

export type PluginKind = "trafficRouter" | "metricProvider" | "step";
export type PluginConfigKey = "trafficRouterPlugins" | "metricProviderPlugins" | "stepPlugins";
export type LocationScheme = "http" | "https" | "file";

export const PLUGIN_CONFIG_MAP_NAME = "argo-rollouts-config";
export const DEFAULT_CONTROLLER_NAMESPACE = "argo-rollouts";

/** Data keys read by upstream `utils/config/config.go`, in the order the page lists them. */
export const PLUGIN_CONFIG_KEYS: Readonly<Record<PluginKind, PluginConfigKey>> = {
  trafficRouter: "trafficRouterPlugins",
  metricProvider: "metricProviderPlugins",
  step: "stepPlugins",
};

export const PLUGIN_KINDS = ["trafficRouter", "metricProvider", "step"] as const satisfies readonly PluginKind[];

/** Upstream `config.go` regex: GitHub user and repo limits, `<org>/<name>`. */
const PLUGIN_NAME_PATTERN = /^([a-zA-Z0-9\-]+)\/{1}([a-zA-Z0-9_\-.]+)$/;

const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export interface RegisteredPlugin {
  kind: PluginKind;
  name: string;
  org: string;
  shortName: string;
  location: string;
  locationScheme: LocationScheme;
  version: string | null;
  sha256: string | null;
  args: string[];
  headersFromSecrets: string[];
  disabled: boolean;
  /** Position in its data key's list. */
  index: number;
}

export interface PluginEntryError {
  /** `invalid-yaml`: the whole key is unusable; `invalid-entry`: one field of one entry. */
  code: "invalid-yaml" | "invalid-entry";
  kind: PluginKind;
  key: PluginConfigKey;
  index: number | null;
  /** The entry's `name` when it is a string, even an invalid one. */
  name: string | null;
  /** Path inside the entry, e.g. `location` or `headersFrom[0].secretRef.name`. */
  field: string | null;
  /** The offending value rendered as JSON, or null when absent. */
  value: string | null;
  reason: string;
}

export interface PluginConfigMapMeta {
  name: string;
  namespace: string;
  resourceVersion: string | null;
  /** Latest `managedFields[].time`, else `creationTimestamp` (a ConfigMap has no update timestamp of its own). */
  updatedAt?: string;
}

export interface PluginConfig {
  plugins: RegisteredPlugin[];
  entryErrors: PluginEntryError[];
  /** True when upstream would `log.Fatalf` at start-up on this ConfigMap. */
  crashLoops: boolean;
  configMap: PluginConfigMapMeta | null;
}

export interface PluginConfigMapInput {
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    creationTimestamp?: string | Date;
    managedFields?: ReadonlyArray<{ time?: string | Date }>;
  };
  data?: Record<string, string>;
}

function describeType(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object") return "a mapping";
  return `a ${typeof input}`;
}

function requiredOrType(expected: string) {
  return (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null ? "is required" : `must be ${expected}, got ${describeType(issue.input)}`;
}

function typeOnly(expected: string) {
  return (issue: { input?: unknown }): string => `must be ${expected}, got ${describeType(issue.input)}`;
}

/** Scheme of a location, lower-cased as Go's `url.Parse` does; null when there is none. */
function readScheme(location: string): string | null {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(location);
  return match ? match[1].toLowerCase() : null;
}

function checkLocation(location: string, ctx: z.RefinementCtx): void {
  if (location.trim() === "") {
    ctx.addIssue({ code: "custom", message: "is required" });
    return;
  }
  const scheme = readScheme(location);
  if (scheme === null) {
    ctx.addIssue({ code: "custom", message: "has no scheme; it must start with http://, https:// or file://" });
    return;
  }
  if (scheme !== "http" && scheme !== "https" && scheme !== "file") {
    ctx.addIssue({
      code: "custom",
      message: `uses unsupported scheme "${scheme}"; only http://, https:// and file:// are downloaded`,
    });
    return;
  }
  if (scheme !== "file" && !URL.canParse(location)) {
    ctx.addIssue({ code: "custom", message: "is not a valid URL" });
  }
}

function checkSha256(sha256: string, ctx: z.RefinementCtx): void {
  if (sha256 === "" || SHA256_PATTERN.test(sha256)) return;
  if (SHA256_PATTERN.test(sha256.toLowerCase())) {
    ctx.addIssue({
      code: "custom",
      message: "must be lower-case hex; upstream compares it with the lower-case digest, so the download never matches",
    });
    return;
  }
  ctx.addIssue({ code: "custom", message: `must be 64 hex characters (got ${sha256.length} characters)` });
}

/**
 * `PluginItem` of upstream `utils/plugin/types/types.go`. `null` counts as absent, as it does for Go's
 * `encoding/json`; unknown fields are ignored, as `sigs.k8s.io/yaml` does.
 */
const pluginItemSchema = z.looseObject({
  name: z
    .string({ error: requiredOrType("a string") })
    .regex(PLUGIN_NAME_PATTERN, { error: `must be <org>/<name> matching ${PLUGIN_NAME_PATTERN.source}` }),
  location: z.string({ error: requiredOrType("a string") }).superRefine(checkLocation),
  sha256: z
    .string({ error: typeOnly("a string") })
    .superRefine(checkSha256)
    .nullish(),
  args: z.array(z.string({ error: typeOnly("a string") }), { error: typeOnly("a list of strings") }).nullish(),
  headersFrom: z
    .array(
      z.looseObject(
        {
          secretRef: z.looseObject(
            { name: z.string({ error: requiredOrType("a string") }).min(1, { error: "is required" }) },
            { error: requiredOrType("a mapping {name}") },
          ),
        },
        { error: typeOnly("a mapping {secretRef: {name}}") },
      ),
      { error: typeOnly("a list") },
    )
    .nullish(),
  disabled: z.boolean({ error: typeOnly("true or false") }).nullish(),
});

type PluginItem = z.infer<typeof pluginItemSchema>;

const ITEM_FIELDS = ["name", "location", "sha256", "args", "headersFrom", "disabled"] as const;

/**
 * Go's `encoding/json` (behind `sigs.k8s.io/yaml`) matches struct fields case-insensitively and the last
 * matching key wins, so `Location:` works upstream; fold keys the same way before validating.
 */
function foldFieldNames(entry: Record<string, unknown>): Record<string, unknown> {
  const folded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const field = ITEM_FIELDS.find((candidate) => candidate.toLowerCase() === key.toLowerCase());
    folded[field ?? key] = value;
  }
  return folded;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === "number") return `${text}[${segment}]`;
    return text === "" ? String(segment) : `${text}.${String(segment)}`;
  }, "");
}

function readPath(source: unknown, path: readonly PropertyKey[]): unknown {
  let current = source;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function renderValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value);
}

function stripCodeFrame(message: string): string {
  return message.split("\n")[0].replace(/:\s*$/, "");
}

/**
 * Version from a location: the GitHub release tag (`/releases/download/v0.15.0/`), else `-v1.2.3`, `_v1.2.3`
 * or `@v1.2.3` in the file name. Null for `latest` and unversioned paths.
 */
export function parseLocationVersion(location: string): string | null {
  const release = /\/releases\/download\/([^/]+)\//.exec(location);
  if (release) {
    const tag = decodeURIComponent(release[1]);
    const tagVersion = /^(?:[A-Za-z-]*?-)?(v?\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?)$/.exec(tag);
    if (tagVersion) return tagVersion[1];
  }
  const fileName = location.split(/[?#]/)[0].split("/").pop() ?? "";
  const inName = /[-_@](v\d+\.\d+\.\d+(?:-(?:rc|alpha|beta)[.\d]*)?)/.exec(fileName);
  return inName ? inName[1] : null;
}

function latestTimestamp(metadata: NonNullable<PluginConfigMapInput["metadata"]>): string | undefined {
  const times = [...(metadata.managedFields ?? []).map((field) => field.time), metadata.creationTimestamp]
    .filter((time): time is string | Date => time !== undefined)
    .map((time) => new Date(time))
    .filter((time) => !Number.isNaN(time.getTime()));
  if (times.length === 0) return undefined;
  return new Date(Math.max(...times.map((time) => time.getTime()))).toISOString();
}

function toRegisteredPlugin(kind: PluginKind, index: number, item: PluginItem): RegisteredPlugin {
  const [, org, shortName] = PLUGIN_NAME_PATTERN.exec(item.name) ?? [item.name, "", item.name];
  return {
    kind,
    name: item.name,
    org,
    shortName,
    location: item.location,
    locationScheme: readScheme(item.location) as LocationScheme,
    version: parseLocationVersion(item.location),
    sha256: item.sha256 ? item.sha256 : null,
    args: item.args ?? [],
    headersFromSecrets: (item.headersFrom ?? []).map((header) => header.secretRef.name),
    disabled: item.disabled ?? false,
    index,
  };
}

function parseEntry(kind: PluginKind, index: number, raw: unknown): { plugin: RegisteredPlugin | null; errors: PluginEntryError[] } {
  const key = PLUGIN_CONFIG_KEYS[kind];
  const at = `${key}[${index}]`;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    const reason = `${at} must be a mapping with name and location, got ${describeType(raw)}`;
    const error: PluginEntryError = {
      code: "invalid-entry",
      kind,
      key,
      index,
      name: null,
      field: null,
      value: renderValue(raw),
      reason,
    };
    return { plugin: null, errors: [error] };
  }
  const entry = foldFieldNames(raw as Record<string, unknown>);
  const name = typeof entry.name === "string" ? entry.name : null;
  const result = pluginItemSchema.safeParse(entry);
  if (result.success) return { plugin: toRegisteredPlugin(kind, index, result.data), errors: [] };

  const errors = result.error.issues.map((issue): PluginEntryError => {
    const field = formatPath(issue.path);
    const value = renderValue(readPath(entry, issue.path));
    const label = name && field !== "name" ? ` (${name})` : "";
    return {
      code: "invalid-entry",
      kind,
      key,
      index,
      name,
      field,
      value,
      reason: `${at}${label} ${field}${value === null ? "" : ` ${value}`} ${issue.message}`,
    };
  });
  return { plugin: null, errors };
}

function parseKey(kind: PluginKind, text: string | undefined): { plugins: RegisteredPlugin[]; errors: PluginEntryError[] } {
  const key = PLUGIN_CONFIG_KEYS[kind];
  if (text === undefined || text.trim() === "") return { plugins: [], errors: [] };

  const keyError = (reason: string): PluginEntryError => ({
    code: "invalid-yaml",
    kind,
    key,
    index: null,
    name: null,
    field: null,
    value: null,
    reason,
  });

  // go-yaml v2 (behind sigs.k8s.io/yaml) implements YAML 1.1, where `disabled: yes` is a boolean.
  const document = parseDocument(text, { version: "1.1" });
  if (document.errors.length > 0) {
    return { plugins: [], errors: [keyError(`${key} is not valid YAML: ${stripCodeFrame(document.errors[0].message)}`)] };
  }
  const parsed: unknown = document.toJS();
  if (parsed === null || parsed === undefined) return { plugins: [], errors: [] };
  if (!Array.isArray(parsed)) {
    return { plugins: [], errors: [keyError(`${key} must be a list of plugin entries, got ${describeType(parsed)}`)] };
  }

  const plugins: RegisteredPlugin[] = [];
  const errors: PluginEntryError[] = [];
  parsed.forEach((raw: unknown, index) => {
    const entry = parseEntry(kind, index, raw);
    if (entry.plugin) plugins.push(entry.plugin);
    errors.push(...entry.errors);
  });
  return { plugins, errors };
}

/**
 * Reads `argo-rollouts-config` the way upstream `utils/config/config.go` does at controller start-up: each of
 * `trafficRouterPlugins`, `metricProviderPlugins` and `stepPlugins` is a YAML or JSON list of `PluginItem`.
 *
 * Upstream stops at the first problem (`log.Fatalf`, so the controller crash-loops); this keeps going and
 * returns every error next to every valid entry, so a page can show the whole picture. A missing ConfigMap is
 * an empty config, as upstream tolerates it.
 */
export function parsePluginConfigMap(configMap: PluginConfigMapInput | null): PluginConfig {
  if (configMap === null) return { plugins: [], entryErrors: [], crashLoops: false, configMap: null };

  const plugins: RegisteredPlugin[] = [];
  const entryErrors: PluginEntryError[] = [];
  for (const kind of PLUGIN_KINDS) {
    const parsed = parseKey(kind, configMap.data?.[PLUGIN_CONFIG_KEYS[kind]]);
    plugins.push(...parsed.plugins);
    entryErrors.push(...parsed.errors);
  }

  const metadata = configMap.metadata ?? {};
  const updatedAt = latestTimestamp(metadata);
  return {
    plugins,
    entryErrors,
    crashLoops: entryErrors.length > 0,
    configMap: {
      name: metadata.name ?? PLUGIN_CONFIG_MAP_NAME,
      namespace: metadata.namespace ?? DEFAULT_CONTROLLER_NAMESPACE,
      resourceVersion: metadata.resourceVersion ?? null,
      ...(updatedAt === undefined ? {} : { updatedAt }),
    },
  };
}
