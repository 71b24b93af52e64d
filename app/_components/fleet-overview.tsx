"use client";

import { FleetTable } from "@/components/rollouts/fleet-table";
import { useFleetRollouts } from "@/lib/queries/use-fleet-rollouts";

export function FleetOverview() {
  const { data, error, isPending } = useFleetRollouts();
  return (
    <main className="mx-auto max-w-7xl p-6">
      <h1 className="mb-4 text-xl font-semibold">Rollouts</h1>
      {isPending && <p>Loading…</p>}
      {error && <p role="alert">Could not load rollouts: {error.message}</p>}
      {data && (
        <>
          <ul className="mb-4 flex gap-3 text-sm">
            {data.clusters.map((c) => (
              <li key={c.name} data-testid="cluster-chip" data-connection={c.connection}>
                {c.name}: {c.connection}
              </li>
            ))}
          </ul>
          <FleetTable rollouts={data.rollouts} />
        </>
      )}
    </main>
  );
}
