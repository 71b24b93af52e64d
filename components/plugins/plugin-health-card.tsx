"use client";

import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Panel, PluginHealthView } from "@/lib/plugins/view-types";
import { ErrorHint } from "./error-hint";
import { burnTone, describeBurn, describeBurnBasis, formatRate, formatSeconds, successRateState } from "./health-model";
import { SuccessRateChart } from "./success-rate-chart";

/** The signal behind a number, always next to it. */
function Signal({ text }: { text: string }) {
  return <p className="mt-1 text-[11px] leading-snug text-slate-500 dark:text-slate-400">Signal: {text}</p>;
}

function Section<T>({ title, panel, children }: { title: string; panel: Panel<T>; children: (data: T) => ReactNode }) {
  return (
    <section className="min-w-0">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{title}</h3>
      {panel.error ? (
        <p role="alert" className="mt-1 text-xs text-amber-800 dark:text-amber-300">
          Unavailable: {panel.error}
        </p>
      ) : panel.data === null ? (
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">No data</p>
      ) : (
        <div className="mt-1">{children(panel.data)}</div>
      )}
      <Signal text={panel.signal} />
    </section>
  );
}

/** Rollouts with the reasons they are listed for (affected by the router, or problems of their own). */
function RolloutReasons({ rollouts, testId }: { rollouts: PluginHealthView["affected"]; testId: string }) {
  if (rollouts.length === 0) return <p className="text-xs text-slate-500 dark:text-slate-400">None</p>;
  return (
    <ul className="text-xs" data-testid={testId}>
      {rollouts.map((a) => (
        <li key={`${a.cluster}/${a.namespace}/${a.name}`}>
          <span className="font-medium">
            {a.cluster}: {a.namespace}/{a.name}
          </span>{" "}
          — {a.reasons.join("; ")}
        </li>
      ))}
    </ul>
  );
}

/** Health of one traffic-router plugin in one cluster (or fleet-wide): every panel names its signal. */
export function PluginHealthCard({ view, loading, error }: { view: PluginHealthView; loading: boolean; error: string | null }) {
  const target = view.slo.data?.target ?? 0.99;
  const scope = view.cluster ?? "fleet";
  const total = view.derived.data?.total;
  return (
    <Card data-testid="plugin-health-card" data-plugin={view.plugin} data-cluster={scope} className="wrap-anywhere">
      <CardHeader
        title={
          <span>
            <span className="font-mono">{view.plugin}</span>{" "}
            <span className="font-normal text-slate-500 dark:text-slate-400">· {scope === "fleet" ? "fleet-wide" : scope}</span>
          </span>
        }
        meta={`${view.rolloutCount} Rollout${view.rolloutCount === 1 ? "" : "s"}`}
        actions={
          <div className="flex items-center gap-1.5" data-testid="slo-badges">
            <span className="text-xs text-slate-500 dark:text-slate-400">SLO {formatRate(target)}</span>
            {view.slo.error ? (
              <Badge tone="amber">burn: unavailable</Badge>
            ) : (
              (view.slo.data?.burn ?? []).map((burn) => (
                <Badge key={burn.window} tone={burnTone(burn)} dot title={describeBurnBasis(burn)}>
                  {describeBurn(burn)}
                </Badge>
              ))
            )}
          </div>
        }
      />
      <CardBody className="grid gap-4 lg:grid-cols-2">
        <section className="min-w-0 lg:col-span-2">
          <div className="flex flex-wrap items-baseline gap-x-4 text-sm">
            <span>
              Success rate <span className="text-xs text-slate-500 dark:text-slate-400">(derived)</span>:{" "}
              <strong className="tabular-nums">{formatRate(total?.successRate)}</strong>
            </span>
            <span className="text-xs text-slate-500 dark:text-slate-400 tabular-nums">
              {total
                ? `${Math.round(total.failures)} failed of ${Math.round(total.attempts)} attempts · ${Math.round(view.derived.data?.weightUpdates ?? 0)} weight updates`
                : ""}
            </span>
            {view.perRpc?.data && (
              <span data-testid="measured-success">
                {view.perRpc.data.source === "meter" ? "Measured at the plugin boundary" : "Per-RPC (configured metric)"}:{" "}
                <strong className="tabular-nums">{formatRate(view.perRpc.data.total.successRate)}</strong>
                <span className="text-xs text-slate-500 dark:text-slate-400 tabular-nums">
                  {" "}
                  · {Math.round(view.perRpc.data.total.errors)} failed of {Math.round(view.perRpc.data.total.calls)} calls
                  {view.perRpc.data.restarts !== null ? ` · ${view.perRpc.data.restarts} plugin restarts` : ""}
                </span>
              </span>
            )}
          </div>
          <SuccessRateChart state={successRateState(view, loading, error)} target={target} title={`success rate of ${view.plugin}`} />
          <Signal text={view.derived.signal} />
        </section>
        <Section title="Failures by RPC method" panel={view.failuresByMethod}>
          {(counts) =>
            counts.length === 0 ? (
              <p className="text-xs text-slate-500 dark:text-slate-400">No failures</p>
            ) : (
              <ul className="text-xs tabular-nums">
                {counts.map((c) => (
                  <li key={c.method} title={c.signal}>
                    <span className="font-mono">{c.method === "NoEvent" ? "no event (see controller log)" : c.method}</span>: {c.failures}
                  </li>
                ))}
              </ul>
            )
          }
        </Section>
        <Section title="Latency proxy: reconcile duration" panel={view.latency}>
          {(latency) => (
            <p className="text-xs tabular-nums">
              p50 {formatSeconds(latency.p50)} · p95 {formatSeconds(latency.p95)}
            </p>
          )}
        </Section>
        {view.perRpc && (
          <Section
            title={
              view.perRpc.data?.source === "configured"
                ? "Per-RPC calls (configured metric)"
                : "Calls per method — measured at the plugin boundary"
            }
            panel={view.perRpc}
          >
            {(perRpc) => (
              <table className="w-full text-xs tabular-nums" data-testid="per-rpc-table" data-source={perRpc.source}>
                <thead>
                  <tr className="text-left text-slate-500 dark:text-slate-400">
                    <th className="font-medium">Method</th>
                    <th className="font-medium">Calls</th>
                    <th className="font-medium">Failed</th>
                    <th className="font-medium">Success</th>
                    <th className="font-medium">p50</th>
                    <th className="font-medium">p95</th>
                    <th className="font-medium">Mean</th>
                  </tr>
                </thead>
                <tbody>
                  {perRpc.methods.map((m) => (
                    <tr key={m.method} data-method={m.method}>
                      <td className="font-mono">{m.method}</td>
                      <td>{Math.round(m.calls)}</td>
                      <td title={m.errorsByOutcome.map((e) => `${e.outcome}: ${Math.round(e.calls)}`).join(", ")}>
                        {Math.round(m.errors)}
                        {m.errorsByOutcome.length > 0 && (
                          <span className="text-slate-500 dark:text-slate-400">
                            {" "}
                            ({m.errorsByOutcome.map((e) => `${Math.round(e.calls)} ${e.outcome}`).join(", ")})
                          </span>
                        )}
                      </td>
                      <td>{formatRate(m.successRate)}</td>
                      <td>{formatSeconds(m.p50)}</td>
                      <td>{formatSeconds(m.p95)}</td>
                      <td>{formatSeconds(m.mean)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Section>
        )}
        <Section title="Weight verification" panel={view.verification}>
          {(v) =>
            v.unverified.length === 0 ? (
              <p className="text-xs text-slate-500 dark:text-slate-400">No Rollout reports verified=false</p>
            ) : (
              <ul className="text-xs">
                {v.unverified.map((u) => (
                  <li key={`${u.cluster}/${u.namespace}/${u.name}`}>
                    {u.namespace}/{u.name}: verified=false {u.seconds !== null ? `for ${u.seconds} s` : ""}
                  </li>
                ))}
              </ul>
            )
          }
        </Section>
        <Section
          title="Rollouts affected now"
          panel={{
            signal:
              "the needs-attention reasons of the overview's queue that are the router's (failed calls, not registered, weight not verified)",
            error: null,
            data: view.affected,
          }}
        >
          {(affected) => <RolloutReasons rollouts={affected} testId="affected-rollouts" />}
        </Section>
        <Section
          title="Other problems of these Rollouts (not the router's)"
          panel={{
            signal: "needs-attention reasons of their own (analysis, abort, missing Service, no progress); left out of the derived figures",
            error: null,
            data: view.otherProblems,
          }}
        >
          {(others) => <RolloutReasons rollouts={others} testId="other-problems" />}
        </Section>
        <div className="lg:col-span-2">
          <Section title="Recent Warning events" panel={view.warnings}>
            {(warnings) =>
              warnings.length === 0 ? (
                <p className="text-xs text-slate-500 dark:text-slate-400">No Warning events in this range</p>
              ) : (
                <ul className="flex flex-col gap-1.5 text-xs" data-testid="plugin-warnings">
                  {warnings.slice(0, 10).map((w, i) => (
                    <li key={`${w.cluster}/${w.namespace}/${w.rollout}/${w.lastAt}/${i}`}>
                      <span className="text-slate-500 dark:text-slate-400">
                        <RelativeTime at={w.lastAt} /> · {w.cluster} {w.namespace}/{w.rollout} · {w.reason} ×{w.count} · {w.method}
                      </span>
                      <p className="font-mono">{w.message}</p>
                      <ErrorHint hint={w.hint} />
                    </li>
                  ))}
                </ul>
              )
            }
          </Section>
        </div>
      </CardBody>
    </Card>
  );
}
