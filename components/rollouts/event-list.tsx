"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { InfoIcon, WarningIcon } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";
import type { EventView } from "@/lib/rollouts/detail-types";
import { LongText } from "@/components/ui/long-text";

const COLLAPSED = 25;

/** Kubernetes events on the rollout, newest first, with a Warnings-only switch. */
export function EventList({ events, now }: { events: EventView[]; now: number }) {
  const [warningsOnly, setWarningsOnly] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const warnings = events.filter((e) => e.type === "Warning").length;
  const sorted = [...events]
    .filter((e) => !warningsOnly || e.type === "Warning")
    .sort((a, b) => Date.parse(b.lastAt) - Date.parse(a.lastAt));
  const shown = expanded ? sorted : sorted.slice(0, COLLAPSED);

  return (
    <div className="flex flex-col">
      <div className="flex items-center gap-2 px-4 pt-3 pb-2">
        <Button variant={warningsOnly ? "ghost" : "secondary"} aria-pressed={!warningsOnly} onClick={() => setWarningsOnly(false)}>
          All <span className="tabular-nums">{events.length}</span>
        </Button>
        <Button
          variant={warningsOnly ? "secondary" : "ghost"}
          aria-pressed={warningsOnly}
          onClick={() => setWarningsOnly(true)}
          data-testid="events-warnings-only"
        >
          Warnings <span className="tabular-nums">{warnings}</span>
        </Button>
      </div>
      {shown.length === 0 ? (
        <p className="px-4 pb-4 text-sm text-slate-500 dark:text-slate-400">No warning events.</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {shown.map((e) => (
            <li key={e.uid} data-testid="event-row" data-type={e.type} data-reason={e.reason} className="flex gap-3 px-4 py-2 text-sm">
              <span className="mt-0.5 shrink-0" role="img" aria-label={e.type}>
                {e.type === "Warning" ? (
                  <WarningIcon className="size-4 text-amber-600 dark:text-amber-400" />
                ) : (
                  <InfoIcon className="size-4 text-slate-500 dark:text-slate-400" />
                )}
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-baseline gap-x-2">
                  <span className={cn("font-medium", e.type === "Warning" && "text-amber-800 dark:text-amber-300")}>{e.reason}</span>
                  {e.count > 1 && (
                    <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400" title={`${e.count} times since ${e.firstAt}`}>
                      ×{e.count}
                    </span>
                  )}
                  <RelativeTime at={e.lastAt} now={now} className="ml-auto text-xs text-slate-500 dark:text-slate-400" />
                </div>
                <LongText text={e.message} className="block text-slate-700 dark:text-slate-300" />
              </div>
            </li>
          ))}
        </ul>
      )}
      {sorted.length > COLLAPSED && (
        <div className="border-t border-slate-100 px-4 py-2 dark:border-slate-800">
          <Button variant="ghost" onClick={() => setExpanded((v) => !v)} aria-expanded={expanded}>
            {expanded ? "Show fewer" : `Show all ${sorted.length}`}
          </Button>
        </div>
      )}
    </div>
  );
}
