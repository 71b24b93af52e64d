"use client";

import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  Brush,
  CartesianGrid,
  Curve,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type LineDrawShapeProps,
  type TooltipContentProps,
} from "recharts";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { InfoIcon } from "@/components/ui/icons";
import { formatPercent } from "@/lib/format/percent";
import { formatAbsoluteTime, formatAxisTime } from "@/lib/format/relative-time";
import { ChartFrame, type ChartState } from "./chart-state";
import { MARKER_STYLE, MarkerLayer, StepBoundaries, UnverifiedBands } from "./timeline-layers";
import {
  measuredNote,
  timeTicks,
  windowIndexes,
  withTimeGrid,
  type TimeWindow,
  type WeightChartData,
  type WeightChartRow,
} from "./weight-chart-data";
import { WeightStepTable } from "./weight-step-table";

const HEIGHT = 330;
const BRUSH_HEIGHT = 26;
/** More measured samples than this draw no dots (each is an SVG element the chart redraws on every refresh). */
const MAX_MEASURED_DOTS = 120;

/*
 * recharts keeps every axis, line and brush in a store of its own, and each one whose props changed identity writes
 * itself there again on every render: every write recomputes the chart's layout and re-renders it synchronously. So
 * the props that do not change are made once, here or memoised below, and a refresh of the data (every 5 s while the
 * Rollout changes) writes the data and the sliding time axis only.
 */
const Y_DOMAIN: [number, number] = [0, 100];
const Y_TICKS = [0, 25, 50, 75, 100];
const AXIS_TICK = { fill: "var(--chart-axis)" };
const CHART_MARGIN = { top: 16, right: 16, bottom: 0, left: 0 };
const MEASURED_DOT = { r: 1.5 };
const formatYTick = (v: number) => `${v}%`;

const SERIES = {
  requested: { label: "Requested (steps)", color: "var(--chart-requested)" },
  applied: { label: "Applied (router)", color: "var(--chart-applied)" },
  measured: { label: "Measured", color: "var(--chart-measured)" },
} as const;

function WeightTooltip({ active, payload, span }: TooltipContentProps & { span: number }) {
  const row = payload?.[0]?.payload as WeightChartRow | undefined;
  if (!active || !row) return null;
  return (
    <div
      className="rounded-md border px-3 py-2 text-xs shadow-md"
      style={{ background: "var(--chart-tooltip-bg)", borderColor: "var(--chart-tooltip-border)" }}
    >
      <p className="mb-1 font-medium">{span > 86_400_000 ? formatAbsoluteTime(row.t) : formatAxisTime(row.t, 0)}</p>
      <dl className="grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 tabular-nums">
        <dt style={{ color: SERIES.requested.color }}>Requested</dt>
        <dd className="text-right">{formatPercent(row.requested)}</dd>
        <dt style={{ color: SERIES.applied.color }}>Applied</dt>
        <dd className="text-right">{formatPercent(row.applied)}</dd>
        {row.measured !== null && (
          <>
            <dt style={{ color: SERIES.measured.color }}>Measured</dt>
            <dd className="text-right">{formatPercent(row.measured)}</dd>
          </>
        )}
        <dt>Verified</dt>
        <dd className="text-right">{row.verified === null ? "n/a" : row.verified ? "yes" : "NO"}</dd>
      </dl>
    </div>
  );
}

/**
 * A line's path without the ref recharts measures it through: recharts reads each line's length (`getTotalLength`,
 * which makes the browser lay the page out first) on every render, for an entrance animation these lines do not have.
 */
function UnmeasuredLine(props: LineDrawShapeProps) {
  const {
    pathRef: _pathRef,
    animationElapsedTime: _elapsed,
    isAnimating: _animating,
    isEntrance: _entrance,
    visibleLength: _length,
    ...curve
  } = props;
  return <Curve {...curve} />;
}

function LegendSwatch({ color, dashed, band, label }: { color: string; dashed?: boolean; band?: boolean; label: string }) {
  return (
    <li className="flex items-center gap-1.5">
      {band ? (
        <span className="inline-block h-3 w-4 rounded-sm opacity-40" style={{ background: color }} />
      ) : (
        <svg width="18" height="6" aria-hidden>
          <line x1="0" y1="3" x2="18" y2="3" stroke={color} strokeWidth="2" strokeDasharray={dashed ? "4 3" : undefined} />
        </svg>
      )}
      {label}
    </li>
  );
}

/** A window the person chose with the brush; `toEnd` keeps it on the live edge as new data arrives. */
type Zoom = { from: number; to: number; toEnd: boolean } | null;

/**
 * The visible window and its brush indexes: the person's zoom, else the whole range the range picker names (an hour
 * means the last hour, across revisions, their boundaries marked); "Current revision" zooms to the latest revision's
 * span. Rows are the recorded ones plus an even time grid, so the brush moves in even steps.
 */
function useChartWindow(data: WeightChartData) {
  const [zoom, setZoom] = useState<Zoom>(null);
  // Bumped by "Whole range": the chart starts afresh, its brush over every row (see WindowBrush).
  const [wholeEpoch, setWholeEpoch] = useState(0);
  const rows = useMemo(() => withTimeGrid(data.rows, data.from, data.to), [data]);
  const visible: TimeWindow = zoom ? { from: zoom.from, to: zoom.toEnd ? data.to : zoom.to } : { from: data.from, to: data.to };
  const indexes = rows.length > 1 ? windowIndexes(rows, visible) : null;
  const domain: [number, number] = indexes ? [rows[indexes.startIndex].t, rows[indexes.endIndex].t] : [data.from, data.to];
  // The brush's handler reads the rows it was drawn with, through a ref: one function for the chart's life, so a
  // refresh of the rows does not render the brush again (see WindowBrush).
  const rowsRef = useRef(rows);
  useLayoutEffect(() => {
    rowsRef.current = rows;
  }, [rows]);
  const onBrush = useCallback(({ startIndex, endIndex }: { startIndex?: number; endIndex?: number }) => {
    const drawn = rowsRef.current;
    if (startIndex === undefined || endIndex === undefined || !drawn[startIndex] || !drawn[endIndex]) return;
    setZoom({ from: drawn[startIndex].t, to: drawn[endIndex].t, toEnd: endIndex === drawn.length - 1 });
  }, []);
  const whole = { from: data.from, to: data.to, toEnd: true };
  return {
    rows,
    indexes,
    domain,
    onBrush,
    showRevision: () => setZoom({ ...data.window, toEnd: true }),
    showWhole: () => {
      setZoom(whole);
      setWholeEpoch((epoch) => epoch + 1);
    },
    isWhole: domain[0] <= data.from && domain[1] >= data.to,
    wholeEpoch,
  };
}

/**
 * The brush, rendered again only when its own props change: recharts' Brush writes its settings to the chart's store
 * twice (cleared, then set: the plot's layout recomputed each time) on every render of its own. Its end index is
 * passed only while the person zoomed; over the whole range it starts at the first row and the chart moves its end
 * to the last row whenever the data changes, so a refresh does not render it at all.
 */
const WindowBrush = memo(function WindowBrush({
  startIndex,
  endIndex,
  onChange,
  span,
}: {
  startIndex?: number;
  endIndex?: number;
  onChange: (range: { startIndex?: number; endIndex?: number }) => void;
  span: number;
}) {
  const formatTick = useCallback((v: number) => formatAxisTime(v, span), [span]);
  return (
    <Brush
      dataKey="t"
      height={BRUSH_HEIGHT}
      startIndex={startIndex}
      endIndex={endIndex}
      onChange={onChange}
      tickFormatter={formatTick}
      stroke="var(--chart-axis)"
      fill="var(--chart-tooltip-bg)"
      ariaLabel="Time window of the chart"
    />
  );
});

/** Memoised on its data: the card above re-renders on each refresh before the chart's deferred redraw with it. */
const WeightChartPlot = memo(function WeightChartPlot({ data }: { data: WeightChartData }) {
  const { rows, indexes, domain, onBrush, showRevision, showWhole, isWhole, wholeEpoch } = useChartWindow(data);
  const span = domain[1] - domain[0];
  const showMeasured = data.measured.status === "ok";
  const measuredSamples = useMemo(() => data.rows.filter((row) => row.measured !== null).length, [data.rows]);
  const note = measuredNote(data.measured);
  const markerKinds = [...new Set(data.markers.map((m) => m.kind))];
  const fitsRange = data.window.from <= data.from;
  const [from, to] = domain;
  const xDomain = useMemo((): [number, number] => [from, to], [from, to]);
  const xTicks = useMemo(() => timeTicks(from, to, 8, -new Date(from).getTimezoneOffset()), [from, to]);
  const formatXTick = useCallback((v: number) => formatAxisTime(v, span), [span]);
  const tooltipContent = useCallback((props: TooltipContentProps) => <WeightTooltip {...props} span={span} />, [span]);
  return (
    <div className="flex flex-col gap-2">
      <div
        className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400"
        data-testid="chart-window"
        data-from={domain[0]}
        data-to={domain[1]}
      >
        <span>
          Showing {formatAxisTime(domain[0], span)} – {formatAxisTime(domain[1], span)}; drag the handles below the chart to zoom.
        </span>
        {!fitsRange && (
          <Button variant="ghost" aria-pressed={!isWhole && domain[0] >= data.window.from} onClick={showRevision}>
            Current revision
          </Button>
        )}
        <Button variant="ghost" aria-pressed={isWhole} onClick={showWhole}>
          Whole range
        </Button>
      </div>
      <div style={{ height: HEIGHT }} className="text-xs">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart key={wholeEpoch} data={rows} margin={CHART_MARGIN}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={xDomain}
              ticks={xTicks}
              allowDataOverflow
              tickFormatter={formatXTick}
              stroke="var(--chart-axis)"
              tick={AXIS_TICK}
            />
            <YAxis domain={Y_DOMAIN} ticks={Y_TICKS} tickFormatter={formatYTick} width={44} stroke="var(--chart-axis)" tick={AXIS_TICK} />
            <StepBoundaries segments={data.segments} />
            <UnverifiedBands bands={data.unverified} />
            <Tooltip content={tooltipContent} isAnimationActive={false} />
            <Line
              dataKey="applied"
              name={SERIES.applied.label}
              type="stepAfter"
              stroke={SERIES.applied.color}
              strokeWidth={2.5}
              dot={false}
              isAnimationActive={false}
              shape={UnmeasuredLine}
              connectNulls
            />
            <Line
              dataKey="requested"
              name={SERIES.requested.label}
              type="stepAfter"
              stroke={SERIES.requested.color}
              strokeWidth={1.5}
              // Dashes via inherited CSS: the strokeDasharray prop makes recharts measure the whole path on every render.
              className="[stroke-dasharray:5_4]"
              dot={false}
              isAnimationActive={false}
              shape={UnmeasuredLine}
              connectNulls
            />
            {showMeasured && (
              <Line
                dataKey="measured"
                name={SERIES.measured.label}
                type="monotone"
                stroke={SERIES.measured.color}
                strokeWidth={1.5}
                // A dot per sample while they are few enough to tell apart; a long range is drawn as the line alone.
                dot={measuredSamples <= MAX_MEASURED_DOTS ? MEASURED_DOT : false}
                isAnimationActive={false}
                shape={UnmeasuredLine}
                connectNulls
              />
            )}
            <MarkerLayer markers={data.markers} />
            {indexes && (
              <WindowBrush
                startIndex={isWhole ? 0 : indexes.startIndex}
                endIndex={isWhole ? undefined : indexes.endIndex}
                onChange={onBrush}
                span={span}
              />
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400" aria-label="Legend">
        <LegendSwatch color={SERIES.requested.color} dashed label={SERIES.requested.label} />
        <LegendSwatch color={SERIES.applied.color} label={SERIES.applied.label} />
        {showMeasured && (
          <LegendSwatch
            color={SERIES.measured.color}
            label={`${SERIES.measured.label} (${data.measured.status === "ok" ? data.measured.source : ""})`}
          />
        )}
        {data.unverified.length > 0 && <LegendSwatch color="var(--chart-unverified)" band label="Not verified by router" />}
        {markerKinds.map((kind) => (
          <li key={kind} className="flex items-center gap-1.5">
            <span className="inline-block size-2 rounded-full" style={{ background: MARKER_STYLE[kind]?.color }} />
            {MARKER_STYLE[kind]?.label ?? kind}
          </li>
        ))}
        {data.segments.length > 0 && <LegendSwatch color="var(--chart-step-band)" band label="Steps (S1, S2… alternate shading)" />}
        {note && (
          <li
            data-testid="measured-note"
            data-status={data.measured.status}
            className={cn(
              "flex basis-full items-start gap-1.5 text-slate-500 dark:text-slate-400",
              data.measured.status === "error" && "text-amber-800 dark:text-amber-300",
            )}
          >
            <InfoIcon className="mt-px size-3.5 shrink-0" />
            <span>{note}</span>
          </li>
        )}
      </ul>
      {data.segments.length > 0 && <WeightStepTable segments={data.segments} />}
    </div>
  );
});

/**
 * Canary weight over time on a real time axis: requested and applied as step lines, verified=false as bands,
 * timeline markers as reference lines. A measured line and audit "action" markers draw when the data has them.
 */
export function WeightChart({ state, range }: { state: ChartState<WeightChartData>; range: string }) {
  return (
    <figure
      data-testid="weight-chart"
      data-state={state.status}
      data-points={state.status === "data" ? state.data.pointCount : 0}
      data-markers={state.status === "data" ? state.data.markers.length : 0}
      aria-label={`Canary weight over the last ${range}`}
      className="m-0"
    >
      <ChartFrame state={state} height={HEIGHT} title="weight history">
        {(data) => <WeightChartPlot data={data} />}
      </ChartFrame>
    </figure>
  );
}
