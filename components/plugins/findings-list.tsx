import { Badge, type Tone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import type { Finding, FindingSeverity } from "@/lib/plugins/findings";

const SEVERITY_TONE: Record<FindingSeverity, Tone> = { critical: "red", warning: "amber", info: "blue" };

function describeAffected(finding: Finding): string {
  return finding.affected
    .slice(0, 6)
    .map((a) =>
      `${a.cluster}: ${a.resourceKind ?? ""} ${a.namespace ? `${a.namespace}/` : ""}${a.name ?? a.plugin ?? ""}`
        .replace(/\s+/g, " ")
        .trim(),
    )
    .join(", ")
    .concat(finding.affected.length > 6 ? ` and ${finding.affected.length - 6} more` : "");
}

/** Findings with the objects they affect and the fix, most severe first. */
export function FindingsList({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0)
    return <EmptyState title="No plugin findings">Every referenced plugin is registered and every entry is valid.</EmptyState>;
  return (
    <ul data-testid="plugin-findings" className="divide-y divide-slate-100 dark:divide-slate-800">
      {findings.map((finding) => (
        <li
          key={finding.id}
          id={finding.id}
          data-testid="plugin-finding"
          data-kind={finding.kind}
          data-severity={finding.severity}
          className="py-2.5 wrap-anywhere"
        >
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={SEVERITY_TONE[finding.severity]}>{finding.severity}</Badge>
            <span className="text-sm font-medium">{finding.title}</span>
            <span className="text-xs text-slate-500 dark:text-slate-400">{finding.kind}</span>
          </div>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{finding.detail}</p>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Affects: {describeAffected(finding)}</p>
          <p className="mt-1 text-xs">
            <span className="font-medium">Fix: </span>
            <span className="font-mono">{finding.fix}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}
