import { Badge } from "@/components/ui/badge";
import { connectionLabel, connectionTone } from "./connection";

export function ConnectionBadge({ connection, title }: { connection: string; title?: string }) {
  return (
    <Badge tone={connectionTone(connection)} dot data-testid="connection" data-connection={connection} title={title}>
      {connectionLabel(connection)}
    </Badge>
  );
}
