import type { PluginErrorExplanation } from "@/lib/plugins/troubleshooting";

/** The troubleshooting hint for a known plugin error text, shown right where the error appears. */
export function ErrorHint({ hint }: { hint: PluginErrorExplanation | null }) {
  if (!hint) return null;
  return (
    <details data-testid="error-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
      <summary className="cursor-pointer select-none font-medium text-sky-700 dark:text-sky-400">Why and how to fix</summary>
      <p className="mt-1">{hint.cause}</p>
      <p className="mt-1">
        <span className="font-medium">Fix: </span>
        {hint.fix}
      </p>
      {hint.docs && (
        <a className="mt-1 inline-block underline" href={hint.docs} target="_blank" rel="noreferrer">
          Documentation
        </a>
      )}
    </details>
  );
}
