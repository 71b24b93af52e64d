import type { ClusterConnection } from "@/lib/contracts/clusters";
import type { Tone } from "@/components/ui/badge";

const CONNECTION_TONE: Record<ClusterConnection, Tone> = {
  connected: "green",
  connecting: "blue",
  reconnecting: "amber",
  forbidden: "red",
  unreachable: "red",
};

const CONNECTION_LABEL: Record<ClusterConnection, string> = {
  connected: "Connected",
  connecting: "Connecting",
  reconnecting: "Reconnecting",
  forbidden: "Forbidden",
  unreachable: "Unreachable",
};

export function connectionTone(connection: string): Tone {
  return CONNECTION_TONE[connection as ClusterConnection] ?? "neutral";
}

export function connectionLabel(connection: string): string {
  return CONNECTION_LABEL[connection as ClusterConnection] ?? connection;
}
