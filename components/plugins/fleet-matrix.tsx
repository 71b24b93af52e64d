import { Badge } from "@/components/ui/badge";
import { ScrollArea } from "@/components/ui/scroll-area";
import type { PluginKind } from "@/lib/plugins/config";
import type { PluginsOverview } from "@/lib/plugins/view-types";
import { cellLabel, cellTone } from "./health-model";

const KIND_LABEL: Record<PluginKind, string> = { trafficRouter: "traffic router", metricProvider: "metric provider", step: "step" };

/** Plugin × cluster: registered (with the version read from its location), missing, invalid or absent. */
export function FleetMatrix({ matrix }: { matrix: PluginsOverview["matrix"] }) {
  return (
    <ScrollArea label="Plugin × cluster matrix">
      <table data-testid="plugin-matrix" className="w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500 dark:text-slate-400 dark:border-slate-800">
            <th className="py-2 pr-4 font-medium">Plugin</th>
            <th className="py-2 pr-4 font-medium">Kind</th>
            {matrix.clusters.map((cluster) => (
              <th key={cluster} className="min-w-[12ch] py-2 pr-4 font-medium wrap-anywhere">
                {cluster}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.rows.map((row) => (
            <tr
              key={`${row.kind}/${row.name}`}
              data-testid="plugin-matrix-row"
              data-plugin={row.name}
              className="border-b border-slate-100 last:border-0 dark:border-slate-800/60"
            >
              <td className="min-w-[20ch] py-1.5 pr-4 font-mono text-xs wrap-anywhere">{row.name}</td>
              <td className="py-1.5 pr-4 text-xs text-slate-500 dark:text-slate-400">{KIND_LABEL[row.kind]}</td>
              {matrix.clusters.map((cluster) => {
                const cell = row.cells[cluster];
                const title = [
                  cell.location ?? undefined,
                  cell.state === "registered" ? (cell.sha256 ? "sha256 set" : "no sha256") : undefined,
                  `${cell.usedBy} user(s)`,
                  cell.critical + cell.warning > 0 ? `${cell.critical} critical, ${cell.warning} warning findings` : undefined,
                ]
                  .filter(Boolean)
                  .join(" · ");
                return (
                  <td key={cluster} className="py-1.5 pr-4" data-cluster={cluster} data-state={cell.state}>
                    <Badge tone={cellTone(cell)} dot title={title}>
                      {cellLabel(cell)}
                      {cell.usedBy > 0 && <span className="text-[10px]">×{cell.usedBy}</span>}
                    </Badge>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
