"use client";

import Link from "next/link";
import { memo, useDeferredValue, useMemo, useState } from "react";
import type { ChartState } from "@/components/charts/chart-state";
import { RangeSelector } from "@/components/charts/range-selector";
import { WeightChart } from "@/components/charts/weight-chart";
import { toWeightChartData, type WeightChartData } from "@/components/charts/weight-chart-data";
import { UndoFeedbackLine, UndoRevisionButton, type UndoFeedback } from "@/components/actions/undo-revision-button";
import { connectionLabel } from "@/components/clusters/connection";
import { AnalysisRuns } from "@/components/rollouts/analysis-runs";
import { ConditionsList } from "@/components/rollouts/conditions-list";
import { EventList } from "@/components/rollouts/event-list";
import { PauseCallout } from "@/components/rollouts/pause-callout";
import { CliSummary, ExperimentList, ReplicaSetTable } from "@/components/rollouts/replica-sets";
import { RevisionTable } from "@/components/rollouts/revision-table";
import { RolloutHeader } from "@/components/rollouts/rollout-header";
import { StepsList } from "@/components/rollouts/steps-list";
import { WeightsPanel } from "@/components/rollouts/weights-panel";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import { RenderTimeProvider, useNow } from "@/components/ui/use-now";
import type { InitialRolloutDetail } from "@/lib/contracts/rollout-detail";
import { FetchError } from "@/lib/queries/fetch-json";
import { useMeasuredTraffic, useRolloutDetail, useRolloutHistory } from "@/lib/queries/use-rollout-detail";
import { useRolloutWorkload } from "@/lib/queries/use-rollout-workload";
import { formatStepPositionWithCliIndex } from "@/lib/rollouts/step-position";
import { RANGES, useHistoryRange } from "./use-history-range";

interface Props {
  cluster: string;
  namespace: string;
  name: string;
}

/*
 * A live change of the Rollout re-renders the view with the new state; the cards below read their own queries (or
 * lists the change left as they were, kept by the query cache's structural sharing), so they are memoised: redrawing
 * the chart and the tables on every status change held the changed weight back from the screen.
 */

const WeightHistoryCard = memo(function WeightHistoryCard({ cluster, namespace, name }: Props) {
  const [range, setRange] = useHistoryRange();
  const history = useRolloutHistory(cluster, namespace, name, range);
  const measured = useMeasuredTraffic(cluster, namespace, name, range);
  const chartData = useMemo(() => {
    if (!history.data) return null;
    const measuredTraffic =
      measured.data?.measured ?? (measured.error ? { source: "prometheus", error: measured.error.message, points: [] } : null);
    return toWeightChartData(history.data, measuredTraffic);
  }, [history.data, measured.data, measured.error]);
  // The chart redraws in a render React may interrupt: hundreds of points and markers drawn again held the page for
  // 50–100 ms at each refresh of a busy Rollout's history, delaying the live weights meanwhile.
  const shownChartData = useDeferredValue(chartData);

  const state: ChartState<WeightChartData> =
    history.isPending || (history.isPlaceholderData && !chartData)
      ? { status: "loading" }
      : history.error && !chartData
        ? { status: "error", message: history.error.message, onRetry: () => void history.refetch() }
        : !shownChartData || (shownChartData.rows.length === 0 && shownChartData.markers.length === 0)
          ? { status: "empty", message: `No weight changes recorded in the last ${range}` }
          : { status: "data", data: shownChartData };

  return (
    <Card aria-labelledby="weight-history-title">
      <CardHeader
        id="weight-history-title"
        title="Traffic weight"
        meta={
          history.isPlaceholderData
            ? "loading range…"
            : history.error && chartData
              ? `refresh failed: ${history.error.message}`
              : history.data && <RelativeTime at={history.data.to} prefix="as of " />
        }
        actions={<RangeSelector ranges={RANGES} value={range} onChange={setRange} />}
      />
      <CardBody>
        <WeightChart state={state} range={range} />
      </CardBody>
    </Card>
  );
});

/** Revisions with their ReplicaSets and Pods, read live from the cluster, and the CLI's numbers above them. */
const ReplicaSetsCard = memo(function ReplicaSetsCard({
  cluster,
  namespace,
  name,
  maxTrafficWeight,
  now,
}: Props & { maxTrafficWeight: number; now: number }) {
  // After an undo, the revision the card showed until a newer one appears (followed for at most 20 s).
  const [awaiting, setAwaiting] = useState<{ revision: number | null; until: number } | null>(null);
  const workload = useRolloutWorkload(cluster, namespace, name, awaiting !== null);
  const info = workload.data?.info;
  const [undoFeedback, setUndoFeedback] = useState<UndoFeedback | null>(null);
  if (awaiting && info && (info.revision !== awaiting.revision || now > awaiting.until)) setAwaiting(null);
  const onUndoFeedback = (feedback: UndoFeedback | null) => {
    setUndoFeedback(feedback);
    if (feedback?.kind === "done") setAwaiting({ revision: info?.revision ?? null, until: Date.now() + 20_000 });
  };
  return (
    <Card aria-labelledby="replicasets-title" data-testid="replicasets-card">
      <CardHeader
        id="replicasets-title"
        title="Revisions, ReplicaSets and pods"
        meta={
          workload.error
            ? `refresh failed: ${workload.error.message}`
            : workload.data && <RelativeTime at={workload.data.readAt} prefix="read " now={now} />
        }
      />
      {!info ? (
        workload.error ? (
          <ErrorState title="Could not read the ReplicaSets" message={workload.error.message} onRetry={() => void workload.refetch()} />
        ) : (
          <SkeletonRows rows={3} label="Loading ReplicaSets…" />
        )
      ) : (
        <>
          <CliSummary info={info} maxTrafficWeight={maxTrafficWeight} />
          {undoFeedback && (
            <div className="px-4 pb-2">
              <UndoFeedbackLine feedback={undoFeedback} />
            </div>
          )}
          {info.replicaSets.length === 0 ? (
            <EmptyState title="No ReplicaSets" className="py-6" />
          ) : (
            <ReplicaSetTable
              info={info}
              now={now}
              actionFor={(rs) =>
                rs.revision !== info.revision && (
                  <UndoRevisionButton
                    cluster={cluster}
                    namespace={namespace}
                    name={name}
                    revision={rs.revision}
                    images={rs.images}
                    onFeedback={onUndoFeedback}
                  />
                )
              }
            />
          )}
          {(info.experiments.length > 0 || workload.data?.experimentsError) && (
            <section
              aria-labelledby="experiments-title"
              data-testid="experiments-section"
              className="border-t border-slate-100 dark:border-slate-800"
            >
              <h3 id="experiments-title" className="px-4 pt-3 text-sm font-semibold">
                Experiments
              </h3>
              {workload.data?.experimentsError && (
                <p role="status" className="px-4 py-1 text-xs text-amber-800 dark:text-amber-300">
                  {workload.data.experimentsError}
                </p>
              )}
              <ExperimentList experiments={info.experiments} now={now} />
            </section>
          )}
        </>
      )}
    </Card>
  );
});

const AnalysisRunsList = memo(AnalysisRuns);
const RevisionList = memo(RevisionTable);
const RecentEvents = memo(EventList);

function DetailSkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-busy>
      <Skeleton className="h-8 w-72" />
      <Skeleton className="h-20 w-full" />
      <div className="grid gap-4 xl:grid-cols-[minmax(300px,380px)_minmax(0,1fr)]">
        <SkeletonRows rows={8} label="Loading rollout…" />
        <Skeleton className="h-80 w-full" />
      </div>
    </div>
  );
}

/**
 * One rollout, kept live: the tab's stream invalidates this rollout's detail and history queries whenever a
 * delta for it arrives, so they refetch within a second of the change.
 */
export function RolloutDetailView({ cluster, namespace, name, initial = null }: Props & { initial?: InitialRolloutDetail | null }) {
  return (
    <RenderTimeProvider at={initial?.renderedAt ?? null}>
      <RolloutDetailContent cluster={cluster} namespace={namespace} name={name} initial={initial} />
    </RenderTimeProvider>
  );
}

function RolloutDetailContent({ cluster, namespace, name, initial }: Props & { initial: InitialRolloutDetail | null }) {
  const detail = useRolloutDetail(cluster, namespace, name, initial);
  const now = useNow(10_000);

  if (detail.isPending) return <DetailSkeleton />;
  if (!detail.data) {
    const notFound = detail.error instanceof FetchError && detail.error.status === 404;
    return (
      <div className="flex flex-col gap-3">
        <ErrorState
          title={notFound ? "Rollout not found" : "Could not load this rollout"}
          message={detail.error?.message}
          onRetry={notFound ? undefined : () => void detail.refetch()}
        />
        <Link href="/" className={buttonClasses("secondary", "self-start")}>
          Back to all rollouts
        </Link>
      </div>
    );
  }

  const { rollout, cluster: clusterState, events, analysisRuns, revisions } = detail.data;
  const currentTimings =
    revisions.find((r) => r.revision === String(rollout.revision))?.steps ?? revisions.find((r) => r.outcome === "in-progress")?.steps;
  const gone = detail.error instanceof FetchError && detail.error.status === 404;

  return (
    <div className="flex flex-col gap-4" data-testid="rollout-detail" data-key={rollout.key}>
      {detail.error && (
        <ErrorState
          title={
            gone
              ? "This rollout no longer exists; showing its last known state"
              : "Could not refresh this rollout; showing the last known state"
          }
          message={detail.error.message}
          onRetry={gone ? undefined : () => void detail.refetch()}
        />
      )}
      {clusterState.connection !== "connected" && (
        <p
          data-testid="cluster-stale-notice"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-100"
        >
          Cluster {clusterState.name} is {connectionLabel(clusterState.connection).toLowerCase()} (
          <RelativeTime at={clusterState.since} now={now} />){clusterState.error ? `: ${clusterState.error}` : ""}. What you see may be out
          of date.
        </p>
      )}

      <RolloutHeader rollout={rollout} cluster={clusterState} />

      <div className="grid grid-cols-1 items-start gap-4 xl:grid-cols-[minmax(300px,380px)_minmax(0,1fr)] 2xl:grid-cols-[minmax(320px,400px)_minmax(0,1fr)_minmax(360px,480px)]">
        <div className="flex flex-col gap-4 xl:row-span-2 2xl:row-span-1">
          <Card aria-labelledby="weights-title">
            <CardHeader id="weights-title" title={rollout.strategy === "blueGreen" ? "Services" : "Current weights"} />
            <CardBody className="flex flex-col gap-3">
              {rollout.pause && <PauseCallout pause={rollout.pause} />}
              <WeightsPanel rollout={rollout} />
            </CardBody>
          </Card>
          {rollout.strategy !== "blueGreen" && (
            <Card aria-labelledby="steps-title">
              <CardHeader
                id="steps-title"
                title="Steps"
                meta={
                  rollout.steps.length > 0 && (
                    <span data-testid="steps-position" title="kubectl argo rollouts get rollout prints the 0-based index">
                      {formatStepPositionWithCliIndex({ index: rollout.stepProgress.index, total: rollout.stepProgress.total })}
                    </span>
                  )
                }
              />
              <CardBody className="p-2">
                {rollout.steps.length === 0 ? (
                  <EmptyState title="No steps defined" className="py-4" />
                ) : (
                  <StepsList steps={rollout.steps} timings={currentTimings} paused={rollout.pause !== null} />
                )}
              </CardBody>
            </Card>
          )}
          <Card aria-labelledby="conditions-title">
            <CardHeader id="conditions-title" title="Conditions" />
            <CardBody>
              <ConditionsList conditions={rollout.conditions} now={now} />
            </CardBody>
          </Card>
        </div>

        <div className="flex min-w-0 flex-col gap-4">
          {/* Blue-green switches services instead of shifting weight: no chart to draw. */}
          {rollout.strategy !== "blueGreen" && <WeightHistoryCard cluster={cluster} namespace={namespace} name={name} />}
          <ReplicaSetsCard cluster={cluster} namespace={namespace} name={name} maxTrafficWeight={rollout.maxTrafficWeight} now={now} />
          <Card aria-labelledby="analysis-title">
            <CardHeader id="analysis-title" title="Analysis runs" meta={analysisRuns.length > 0 && analysisRuns.length} />
            {analysisRuns.length === 0 ? (
              <EmptyState title="No analysis runs" className="py-6" />
            ) : (
              <AnalysisRunsList runs={analysisRuns} now={now} />
            )}
          </Card>
          <Card aria-labelledby="revisions-title">
            <CardHeader id="revisions-title" title="Revision history" meta={revisions.length > 0 && revisions.length} />
            {revisions.length === 0 ? (
              <EmptyState title="No revisions recorded yet" className="py-6" />
            ) : (
              <RevisionList revisions={revisions} currentRevision={rollout.revision} now={now} />
            )}
          </Card>
        </div>

        <Card aria-labelledby="events-title" className="xl:col-start-2 2xl:col-start-3 2xl:row-start-1">
          <CardHeader id="events-title" title="Recent events" />
          {events.length === 0 ? (
            <EmptyState title="No events" className="py-6">
              Kubernetes keeps events for about an hour.
            </EmptyState>
          ) : (
            <RecentEvents events={events} now={now} />
          )}
        </Card>
      </div>
    </div>
  );
}
