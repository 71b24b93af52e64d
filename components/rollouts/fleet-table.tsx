"use client";

import type { RolloutSummary } from "@/lib/fleet/summary";

function stepText(r: RolloutSummary): string {
  const { current, total } = r.step;
  if (!total) return "—";
  return `${current ?? total}/${total}`;
}

function weightText(r: RolloutSummary): string {
  if (r.canaryPercent !== null) return `${Math.round(r.canaryPercent)}%`;
  if (r.requestedPercent !== null) return `${Math.round(r.requestedPercent)}%`;
  return "—";
}

export function FleetTable({ rollouts }: { rollouts: RolloutSummary[] }) {
  const sorted = [...rollouts].sort((a, b) => a.key.localeCompare(b.key));
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="py-2">Cluster</th>
          <th>Namespace</th>
          <th>Name</th>
          <th>Phase</th>
          <th>Step</th>
          <th>Canary weight</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
          <tr key={r.key} data-testid="rollout-row" className="border-t border-slate-200 dark:border-slate-800">
            <td className="py-1.5">{r.cluster}</td>
            <td>{r.namespace}</td>
            <td className="font-medium">{r.name}</td>
            <td>{r.phase}</td>
            <td>{stepText(r)}</td>
            <td>{weightText(r)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
