"use client";

import type { FleetRollout } from "@/lib/fleet/types";

function stepText(r: FleetRollout): string {
  const { current, total } = r.stepProgress;
  if (!total) return "—";
  return `${current ?? total}/${total}`;
}

function weightText(r: FleetRollout): string {
  if (r.appliedWeights) return `${Math.round(r.appliedWeights.canaryPercent)}%`;
  if (r.requestedWeight) return `${Math.round(r.requestedWeight.percent)}%`;
  return "—";
}

export function FleetTable({ rollouts }: { rollouts: FleetRollout[] }) {
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
