import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLogView } from "./_components/audit-log-view";

export const metadata: Metadata = { title: "Audit log · Rollscope" };

export default function AuditPage() {
  return (
    <Suspense>
      <AuditLogView />
    </Suspense>
  );
}
