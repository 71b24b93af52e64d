"use client";

import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import { ChartFrame, type ChartState } from "@/components/charts/chart-state";
import { formatAxisTime } from "@/lib/format/relative-time";
import type { SuccessRateRow } from "./health-model";

const HEIGHT = 180;

function RateTooltip({ active, payload }: TooltipContentProps) {
  const row = payload?.[0]?.payload as SuccessRateRow | undefined;
  if (!active || !row) return null;
  return (
    <div
      className="rounded-md border px-3 py-2 text-xs shadow-md"
      style={{ background: "var(--chart-tooltip-bg)", borderColor: "var(--chart-tooltip-border)" }}
    >
      <p className="mb-1 font-medium">{formatAxisTime(row.t, 0)}</p>
      <p>Derived success: {row.derived === null ? "no calls" : `${row.derived.toFixed(1)} %`}</p>
      {row.attempts !== null && (
        <p className="text-slate-500 dark:text-slate-400">
          {Math.round(row.failures ?? 0)} failed of {Math.round(row.attempts)} attempts (reconciles)
        </p>
      )}
      {row.perRpc !== null && <p>Per-RPC success: {row.perRpc.toFixed(1)} %</p>}
    </div>
  );
}

/**
 * Success rate over the range: the DERIVED series (controller events and reconcile counters) and, where the
 * cluster exposes one, the per-RPC metric's series, with the SLO target as a reference line.
 */
export function SuccessRateChart({ state, target, title }: { state: ChartState<SuccessRateRow[]>; target: number; title: string }) {
  return (
    <ChartFrame state={state} height={HEIGHT} title={title}>
      {(rows) => {
        const lowest = Math.min(target * 100, ...rows.flatMap((r) => [r.derived, r.perRpc]).filter((v): v is number => v !== null));
        const floor = Math.max(0, Math.floor(lowest / 10) * 10 - 10);
        const span = rows.length > 1 ? rows[rows.length - 1].t - rows[0].t : 0;
        const hasPerRpc = rows.some((r) => r.perRpc !== null);
        return (
          <div data-testid="success-rate-chart" style={{ height: HEIGHT }} className="text-xs">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
                <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
                <XAxis
                  dataKey="t"
                  type="number"
                  scale="time"
                  domain={[rows[0].t, rows[rows.length - 1].t]}
                  tickFormatter={(v: number) => formatAxisTime(v, span)}
                  stroke="var(--chart-axis)"
                  tick={{ fill: "var(--chart-axis)" }}
                  minTickGap={48}
                />
                <YAxis
                  domain={[floor, 100]}
                  tickFormatter={(v: number) => `${v}%`}
                  width={44}
                  stroke="var(--chart-axis)"
                  tick={{ fill: "var(--chart-axis)" }}
                />
                <ReferenceLine y={target * 100} stroke="var(--chart-marker-abort)" strokeDasharray="4 3" ifOverflow="hidden" />
                <Tooltip content={(props) => <RateTooltip {...props} />} isAnimationActive={false} />
                <Line
                  dataKey="derived"
                  name="Derived"
                  stroke="var(--chart-applied)"
                  strokeWidth={2}
                  dot={false}
                  isAnimationActive={false}
                  connectNulls={false}
                />
                {hasPerRpc && (
                  <Line
                    dataKey="perRpc"
                    name="Per-RPC"
                    stroke="var(--chart-measured)"
                    strokeWidth={1.5}
                    dot={false}
                    isAnimationActive={false}
                  />
                )}
              </LineChart>
            </ResponsiveContainer>
          </div>
        );
      }}
    </ChartFrame>
  );
}
