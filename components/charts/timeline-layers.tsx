"use client";

import { memo } from "react";
import { usePlotArea, useXAxisScale } from "recharts";
import { formatAbsoluteTime } from "@/lib/format/relative-time";
import type { TimelineMarkerKind } from "@/lib/rollouts/detail-types";
import type { StepSegment, WeightChartData, WeightChartMarker } from "./weight-chart-data";

export const MARKER_STYLE: Record<TimelineMarkerKind, { color: string; label: string }> = {
  step: { color: "var(--chart-marker-step)", label: "Step" },
  pause: { color: "var(--chart-marker-pause)", label: "Pause" },
  resume: { color: "var(--chart-marker-resume)", label: "Resume" },
  abort: { color: "var(--chart-marker-abort)", label: "Abort" },
  promote: { color: "var(--chart-marker-promote)", label: "Promote" },
  revision: { color: "var(--chart-marker-revision)", label: "Revision" },
  analysis: { color: "var(--chart-marker-analysis)", label: "Analysis" },
  action: { color: "var(--chart-marker-action)", label: "Action" },
};

function markerText(m: WeightChartMarker): string {
  return `${formatAbsoluteTime(m.t)} · ${MARKER_STYLE[m.kind]?.label ?? m.kind}: ${m.label}${m.actor ? ` (by ${m.actor})` : ""}`;
}

/*
 * Markers and bands are drawn as one plain SVG layer each, positioned with the chart's own x scale, instead of a
 * recharts ReferenceLine/ReferenceArea per item: a busy week has thousands of markers, and one component each
 * (every one registered in the chart's store) made re-renders quadratic.
 */

/** verified=false intervals as shaded bands behind the lines. */
export const UnverifiedBands = memo(function UnverifiedBands({ bands }: { bands: WeightChartData["unverified"] }) {
  const x = useXAxisScale();
  const area = usePlotArea();
  if (!x || !area || bands.length === 0) return null;
  const left = area.x;
  const right = area.x + area.width;
  return (
    <g data-testid="unverified-bands" pointerEvents="none">
      {bands.map((b) => {
        const x1 = Math.max(left, Number(x(b.from)));
        const x2 = Math.min(right, Number(x(b.to)));
        if (!(x2 > x1)) return null;
        return (
          <rect
            key={b.from}
            x={x1}
            y={area.y}
            width={Math.max(1, x2 - x1)}
            height={area.height}
            fill="var(--chart-unverified)"
            fillOpacity={0.22}
          />
        );
      })}
    </g>
  );
});

const HEAD_SPACING = 10;

/** Vertical marker lines with a head on top whose native tooltip tells what happened (and who did it). */
export const MarkerLayer = memo(function MarkerLayer({ markers }: { markers: WeightChartMarker[] }) {
  const x = useXAxisScale();
  const area = usePlotArea();
  if (!x || !area || markers.length === 0) return null;
  const top = area.y;
  const bottom = area.y + area.height;
  // Heads closer than this to the previous one are left out (the line and its tooltip stay): a busy hour would
  // otherwise turn the top edge into a solid bar. Audit actions always get their head.
  let lastHead = Number.NEGATIVE_INFINITY;
  return (
    <g data-testid="chart-markers">
      {markers.map((m, i) => {
        const px = Number(x(m.t));
        if (!Number.isFinite(px) || px < area.x || px > area.x + area.width) return null;
        const color = MARKER_STYLE[m.kind]?.color ?? MARKER_STYLE.step.color;
        const minor = m.kind === "step";
        const head = m.kind === "action" || px - lastHead >= HEAD_SPACING;
        if (head) lastHead = px;
        return (
          <g key={`${m.t}-${i}`} data-testid="chart-marker" data-kind={m.kind}>
            <title>{markerText(m)}</title>
            <line
              x1={px}
              x2={px}
              y1={top}
              y2={bottom}
              stroke={color}
              strokeDasharray={minor ? "2 4" : "4 3"}
              strokeOpacity={minor ? 0.45 : 0.8}
            />
            {head &&
              (m.kind === "action" ? (
                <rect x={px - 4} y={top - 10} width={8} height={8} fill={color} transform={`rotate(45 ${px} ${top - 6})`} />
              ) : (
                <circle cx={px} cy={top - 6} r={minor ? 2.5 : 4} fill={color} />
              ))}
            {/* A wider invisible hit area so thin lines are easy to hover. */}
            <line x1={px} x2={px} y1={top - 12} y2={bottom} stroke="transparent" strokeWidth={8} />
          </g>
        );
      })}
    </g>
  );
});

/** "S3" for step index 2, "r4" when only the revision is known: short enough to sit inside a narrow band. */
function stepLabel(segment: StepSegment): string {
  if (segment.stepIndex !== null) return `S${segment.stepIndex + 1}`;
  return segment.revision ? `r${segment.revision}` : "";
}

const MIN_LABEL_WIDTH = 22;

/**
 * One band per step (every other one shaded) with a line where a step begins, stronger where the revision changes,
 * and the step's number on top when it fits: what changed when reads off the chart without hovering.
 */
export const StepBoundaries = memo(function StepBoundaries({ segments }: { segments: StepSegment[] }) {
  const x = useXAxisScale();
  const area = usePlotArea();
  if (!x || !area || segments.length === 0) return null;
  const left = area.x;
  const right = area.x + area.width;
  return (
    <g data-testid="step-boundaries" pointerEvents="none">
      {segments.map((segment, i) => {
        const x1 = Math.max(left, Number(x(segment.from)));
        const x2 = Math.min(right, Number(x(segment.to)));
        if (!(x2 > x1)) return null;
        const revisionChange = i > 0 && segments[i - 1].revision !== segment.revision;
        const boundary = i > 0 && Number(x(segment.from)) >= left;
        return (
          <g key={segment.from} data-testid="step-boundary" data-step={segment.stepIndex ?? ""}>
            {i % 2 === 1 && <rect x={x1} y={area.y} width={x2 - x1} height={area.height} fill="var(--chart-step-band)" fillOpacity={0.6} />}
            {boundary && (
              <line
                x1={x1}
                x2={x1}
                y1={area.y}
                y2={area.y + area.height}
                stroke={revisionChange ? "var(--chart-marker-revision)" : "var(--chart-marker-step)"}
                strokeOpacity={revisionChange ? 0.8 : 0.6}
              />
            )}
            {x2 - x1 >= MIN_LABEL_WIDTH && (
              <text x={x1 + 3} y={area.y + 10} fontSize={10} fill="var(--chart-axis)">
                {stepLabel(segment)}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
});
