"use client";

import { memo, useId, type ReactNode } from "react";
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

function markerText(m: Omit<WeightChartMarker, "actor"> & { actor: string | undefined }): string {
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
const HOUR_MS = 3_600_000;

/**
 * Where a layer's items go on the time axis, which is linear in epoch ms: at `(t − anchor) · pxPerMs` inside a group
 * translated to `x(anchor)`, the anchor being the hour the layer's first item falls in. A live chart's range slides
 * with the clock on every refresh; then only the translation changes and the memoised items are left as they were
 * (redrawing each of hundreds of markers and steps on every refresh was most of a 70–150 ms task on the detail page).
 */
function useTimePlacement(firstT: number | undefined) {
  const x = useXAxisScale();
  const area = usePlotArea();
  const clipId = useId();
  if (!x || !area || firstT === undefined || !Number.isFinite(firstT)) return null;
  const anchor = Math.floor(firstT / HOUR_MS) * HOUR_MS;
  const origin = Number(x(anchor));
  // Rounded so that the same span on the same width gives the same number, render after render.
  const pxPerMs = Number(((Number(x(anchor + HOUR_MS)) - origin) / HOUR_MS).toPrecision(9));
  if (!Number.isFinite(origin) || !(pxPerMs > 0)) return null;
  return { area, origin, clipId, at: (t: number) => (t - anchor) * pxPerMs };
}

type Placement = NonNullable<ReturnType<typeof useTimePlacement>>;

/** How far a marker's head (radius 4) may reach past the plot's sides. */
const HEAD_OVERHANG = 5;

/** The placed items, clipped to the plot area (and `above` pixels over it, for marker heads). */
function PlacedLayer({ placement, above = 0, children }: { placement: Placement; above?: number; children: ReactNode }) {
  const { area, origin, clipId } = placement;
  const side = above > 0 ? HEAD_OVERHANG : 0;
  return (
    <>
      <clipPath id={clipId}>
        <rect x={area.x - side} y={area.y - above} width={area.width + 2 * side} height={area.height + above} />
      </clipPath>
      <g clipPath={`url(#${clipId})`}>
        <g transform={`translate(${origin} 0)`}>{children}</g>
      </g>
    </>
  );
}

interface MarkProps {
  t: number;
  kind: TimelineMarkerKind;
  label: string;
  actor: string | undefined;
  /** Position in the layer (px from the anchor). */
  px: number;
  top: number;
  bottom: number;
  head: boolean;
}

const Mark = memo(function Mark({ t, kind, label, actor, px, top, bottom, head }: MarkProps) {
  const color = MARKER_STYLE[kind]?.color ?? MARKER_STYLE.step.color;
  const minor = kind === "step";
  return (
    <g data-testid="chart-marker" data-kind={kind} data-t={t}>
      <title>{markerText({ t, kind, label, actor })}</title>
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
        (kind === "action" ? (
          <rect x={px - 4} y={top - 10} width={8} height={8} fill={color} transform={`rotate(45 ${px} ${top - 6})`} />
        ) : (
          <circle cx={px} cy={top - 6} r={minor ? 2.5 : 4} fill={color} />
        ))}
      {/* A wider invisible hit area so thin lines are easy to hover. */}
      <line x1={px} x2={px} y1={top - 12} y2={bottom} stroke="transparent" strokeWidth={8} />
    </g>
  );
});

/** Keys that stay with their item when older items leave the range (an index would not). */
function stableKeys<T>(items: readonly T[], keyOf: (item: T) => string): string[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const key = keyOf(item);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n === 0 ? key : `${key}#${n}`;
  });
}

/** Vertical marker lines with a head on top whose native tooltip tells what happened (and who did it). */
export const MarkerLayer = memo(function MarkerLayer({ markers }: { markers: WeightChartMarker[] }) {
  const placement = useTimePlacement(markers[0]?.t);
  if (!placement || markers.length === 0) return null;
  const { area, at } = placement;
  const top = area.y;
  const bottom = area.y + area.height;
  const keys = stableKeys(markers, (m) => `${m.t}:${m.kind}:${m.label}`);
  // Heads closer than this to the previous one are left out (the line and its tooltip stay): a busy hour would
  // otherwise turn the top edge into a solid bar. Audit actions always get their head.
  const placed: Array<{ px: number; head: boolean }> = [];
  let lastHead = Number.NEGATIVE_INFINITY;
  for (const m of markers) {
    const px = at(m.t);
    const head = m.kind === "action" || px - lastHead >= HEAD_SPACING;
    if (head) lastHead = px;
    placed.push({ px, head });
  }
  return (
    <g data-testid="chart-markers">
      <PlacedLayer placement={placement} above={14}>
        {markers.map((m, i) => (
          <Mark
            key={keys[i]}
            t={m.t}
            kind={m.kind}
            label={m.label}
            actor={m.actor}
            px={placed[i].px}
            top={top}
            bottom={bottom}
            head={placed[i].head}
          />
        ))}
      </PlacedLayer>
    </g>
  );
});

/** "S3" for step index 2, "r4" when only the revision is known: short enough to sit inside a narrow band. */
function stepLabel(segment: StepSegment): string {
  if (segment.stepIndex !== null) return `S${segment.stepIndex + 1}`;
  return segment.revision ? `r${segment.revision}` : "";
}

const MIN_LABEL_WIDTH = 22;

interface StepBandProps {
  /** When the step began (epoch ms). */
  from: number;
  stepIndex: number | null;
  label: string;
  /** The band's ends in the layer (px from the anchor); the label's x, moved right to stay in view. */
  x1: number;
  x2: number;
  labelX: number;
  top: number;
  height: number;
  shaded: boolean;
  boundary: "none" | "step" | "revision";
}

const StepBand = memo(function StepBand({ from, stepIndex, label, x1, x2, labelX, top, height, shaded, boundary }: StepBandProps) {
  return (
    <g data-testid="step-boundary" data-step={stepIndex ?? ""} data-from={from}>
      {shaded && <rect x={x1} y={top} width={x2 - x1} height={height} fill="var(--chart-step-band)" fillOpacity={0.6} />}
      {boundary !== "none" && (
        <line
          x1={x1}
          x2={x1}
          y1={top}
          y2={top + height}
          stroke={boundary === "revision" ? "var(--chart-marker-revision)" : "var(--chart-marker-step)"}
          strokeOpacity={boundary === "revision" ? 0.8 : 0.6}
        />
      )}
      {label && (
        <text x={labelX + 3} y={top + 10} fontSize={10} fill="var(--chart-axis)">
          {label}
        </text>
      )}
    </g>
  );
});

/**
 * One band per step (every other one shaded) with a line where a step begins, stronger where the revision changes,
 * and the step's number on top when it fits: what changed when reads off the chart without hovering.
 */
export const StepBoundaries = memo(function StepBoundaries({ segments }: { segments: StepSegment[] }) {
  const placement = useTimePlacement(segments[0]?.from);
  if (!placement || segments.length === 0) return null;
  const { area, origin, at } = placement;
  // The plot's edges in the layer's coordinates: a band's visible part, where its label goes.
  const left = area.x - origin;
  const right = left + area.width;
  return (
    <g data-testid="step-boundaries" pointerEvents="none">
      <PlacedLayer placement={placement}>
        {segments.map((segment, i) => {
          const x1 = at(segment.from);
          const x2 = at(segment.to);
          const visibleFrom = Math.max(left, x1);
          if (!(x2 > x1) || !(Math.min(right, x2) > visibleFrom)) return null;
          const boundary = i === 0 || x1 < left ? "none" : segments[i - 1].revision !== segment.revision ? "revision" : "step";
          return (
            <StepBand
              key={segment.from}
              from={segment.from}
              stepIndex={segment.stepIndex}
              label={Math.min(right, x2) - visibleFrom >= MIN_LABEL_WIDTH ? stepLabel(segment) : ""}
              x1={x1}
              x2={x2}
              labelX={visibleFrom}
              top={area.y}
              height={area.height}
              shaded={i % 2 === 1}
              boundary={boundary}
            />
          );
        })}
      </PlacedLayer>
    </g>
  );
});
