import type { Metadata } from "next";
import { Suspense } from "react";
import { ActivityView } from "./_components/activity-view";

export const metadata: Metadata = { title: "Activity · Rollscope" };

export default function ActivityPage() {
  return (
    <Suspense>
      <ActivityView />
    </Suspense>
  );
}
