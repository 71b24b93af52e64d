import type { ResourceType } from "../resources";
import type { KubeObject } from "../store/object-store";

type Cell = string | number | boolean | null;

interface Column {
  name: string;
  type: "string" | "integer" | "date";
  description: string;
  priority?: number;
  cell: (obj: KubeObject) => Cell;
}

export type IncludeObject = "None" | "Metadata" | "Object";

/** duration.HumanDuration from apimachinery, which the server uses for Age cells. */
function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

function read(obj: unknown, path: string): unknown {
  let current = obj;
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function int(path: string): (obj: KubeObject) => Cell {
  return (obj) => {
    const v = read(obj, path);
    return typeof v === "number" ? v : null;
  };
}

function str(path: string): (obj: KubeObject) => Cell {
  return (obj) => {
    const v = read(obj, path);
    return v === undefined || v === null ? null : String(v);
  };
}

function age(timestampPath: string, now: () => number): (obj: KubeObject) => Cell {
  return (obj) => {
    const v = read(obj, timestampPath);
    if (typeof v !== "string") return "<unknown>";
    const t = Date.parse(v);
    return Number.isNaN(t) ? "<invalid>" : humanDuration(now() - t);
  };
}

const nameColumn: Column = {
  name: "Name",
  type: "string",
  description: "Name must be unique within a namespace.",
  cell: (obj) => obj.metadata.name,
};

/** The printer columns `kubectl get` shows: the Rollout CRD's additionalPrinterColumns and kubectl's built-in ones. */
function columnsFor(type: ResourceType, now: () => number): Column[] {
  const ageColumn: Column = {
    name: "Age",
    type: "date",
    description: "CreationTimestamp of the object.",
    cell: age("metadata.creationTimestamp", now),
  };
  const countKeys = (path: string) => (obj: KubeObject) => {
    const v = read(obj, path);
    return typeof v === "object" && v !== null ? Object.keys(v).length : 0;
  };
  switch (`${type.group}/${type.plural}`) {
    case "argoproj.io/rollouts":
      return [
        nameColumn,
        { name: "Desired", type: "integer", description: "Number of desired pods", cell: int("spec.replicas") },
        {
          name: "Current",
          type: "integer",
          description: "Total number of non-terminated pods targeted by this rollout",
          cell: int("status.replicas"),
        },
        {
          name: "Up-to-date",
          type: "integer",
          description: "Total number of non-terminated pods targeted by this rollout that have the desired template spec",
          cell: int("status.updatedReplicas"),
        },
        {
          name: "Available",
          type: "integer",
          description: "Total number of available pods (ready for at least minReadySeconds) targeted by this rollout",
          cell: int("status.availableReplicas"),
        },
        ageColumn,
      ];
    case "argoproj.io/analysisruns":
    case "argoproj.io/experiments":
      return [nameColumn, { name: "Status", type: "string", description: "Status", cell: str("status.phase") }, ageColumn];
    case "/namespaces":
      return [
        nameColumn,
        { name: "Status", type: "string", description: "The status of the namespace", cell: str("status.phase") },
        ageColumn,
      ];
    case "/configmaps":
      return [
        nameColumn,
        {
          name: "Data",
          type: "integer",
          description: "Number of data keys",
          cell: (o) => countKeys("data")(o) + countKeys("binaryData")(o),
        },
        ageColumn,
      ];
    case "/secrets":
      return [
        nameColumn,
        { name: "Type", type: "string", description: "The type of the secret", cell: str("type") },
        { name: "Data", type: "integer", description: "Number of data keys", cell: countKeys("data") },
        ageColumn,
      ];
    case "/services":
      return [
        nameColumn,
        { name: "Type", type: "string", description: "The type of the service", cell: str("spec.type") },
        { name: "Cluster-IP", type: "string", description: "The cluster IP of the service", cell: str("spec.clusterIP") },
        {
          name: "Port(s)",
          type: "string",
          description: "The ports of the service",
          cell: (o) => {
            const ports = read(o, "spec.ports");
            if (!Array.isArray(ports) || ports.length === 0) return "<none>";
            return ports.map((p: { port?: number; protocol?: string }) => `${p.port ?? ""}/${p.protocol ?? "TCP"}`).join(",");
          },
        },
        ageColumn,
      ];
    case "/pods":
      return [nameColumn, { name: "Status", type: "string", description: "The phase of the pod", cell: str("status.phase") }, ageColumn];
    case "apps/replicasets":
      return [
        nameColumn,
        { name: "Desired", type: "integer", description: "Number of desired pods", cell: int("spec.replicas") },
        { name: "Current", type: "integer", description: "Number of actual pods", cell: int("status.replicas") },
        { name: "Ready", type: "integer", description: "Number of ready pods", cell: int("status.readyReplicas") },
        ageColumn,
      ];
    case "/events":
      return [
        { name: "Last Seen", type: "string", description: "Time since the event was last seen", cell: age("lastTimestamp", now) },
        { name: "Type", type: "string", description: "Type of the event", cell: str("type") },
        { name: "Reason", type: "string", description: "Reason of the event", cell: str("reason") },
        {
          name: "Object",
          type: "string",
          description: "The object the event is about",
          cell: (o) => `${String(read(o, "involvedObject.kind") ?? "").toLowerCase()}/${String(read(o, "involvedObject.name") ?? "")}`,
        },
        { name: "Message", type: "string", description: "Message of the event", cell: str("message") },
      ];
    default:
      return [nameColumn, ageColumn];
  }
}

export interface TableOptions {
  version: "v1" | "v1beta1";
  includeObject: IncludeObject;
  now?: () => number;
}

/** A meta.k8s.io Table of `objects` with row objects as PartialObjectMetadata (the default includeObject=Metadata). */
export function toTable(type: ResourceType, objects: KubeObject[], listMeta: Record<string, unknown>, opts: TableOptions): object {
  const columns = columnsFor(type, opts.now ?? Date.now);
  const apiVersion = `meta.k8s.io/${opts.version}`;
  return {
    kind: "Table",
    apiVersion,
    metadata: listMeta,
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.name === "Name" ? "name" : "",
      description: c.description,
      priority: c.priority ?? 0,
    })),
    rows: objects.map((obj) => ({
      cells: columns.map((c) => c.cell(obj)),
      ...(opts.includeObject === "None"
        ? {}
        : { object: opts.includeObject === "Object" ? obj : { kind: "PartialObjectMetadata", apiVersion, metadata: obj.metadata } }),
    })),
  };
}

export function parseIncludeObject(value: string | null): IncludeObject {
  return value === "None" || value === "Object" ? value : "Metadata";
}
