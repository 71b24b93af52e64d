"use client";

import type { ReactNode } from "react";
import { WarningIcon } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ReadinessAnswer } from "@/lib/contracts/readiness";
import { formatCount } from "@/lib/format/count";
import { useReadiness } from "@/lib/queries/use-readiness";

function Notice({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p
      role="status"
      data-testid={testId}
      className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-100"
    >
      <WarningIcon className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <span className="min-w-0">{children}</span>
    </p>
  );
}

function DatabaseNotice({ report }: { report: ReadinessAnswer }) {
  // Without sign-in readiness answers only {ready}: no checks to name.
  const failed = Object.entries(report.checks ?? {}).find(([, check]) => !check.ok);
  if (!failed) return null;
  return (
    <Notice testId="database-notice">
      <span className="font-medium">The server is not ready ({failed[0]}):</span> <span className="break-words">{failed[1].detail}</span>
    </Notice>
  );
}

function RecorderNotice({ report }: { report: ReadinessAnswer }) {
  const recorder = report.recorder;
  if (!recorder) return null;
  const dropped = recorder.dropped.samples + recorder.dropped.events;
  if (recorder.state !== "failing" && dropped === 0) return null;
  return (
    <Notice testId="recorder-notice">
      {recorder.state === "failing" && (
        <>
          <span className="font-medium">History is not being saved:</span> the database refuses writes since{" "}
          <RelativeTime at={recorder.since} />
          {recorder.lastError && <span className="font-mono text-xs break-words"> ({recorder.lastError})</span>}.{" "}
          {formatCount(recorder.pending.samples + recorder.pending.events)} changes wait in memory and are stored once it accepts them
          again.{" "}
        </>
      )}
      {dropped > 0 && (
        <span>{formatCount(dropped)} recorded changes were dropped while writes failed: the history has a gap since start-up.</span>
      )}
    </Notice>
  );
}

/** Problems of the server itself — database unreachable, history not being saved — on every page, under the header. */
export function ServerNotices() {
  const { data } = useReadiness();
  if (!data) return null;
  return (
    <div className="mx-auto flex w-full max-w-[2560px] flex-col gap-1 px-4 pb-2 empty:hidden lg:px-6">
      <DatabaseNotice report={data} />
      <RecorderNotice report={data} />
    </div>
  );
}
