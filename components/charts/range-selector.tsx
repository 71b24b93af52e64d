import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

interface RangeSelectorProps<R extends string> {
  ranges: readonly R[];
  value: R;
  onChange: (range: R) => void;
}

/** Segmented 15m/1h/6h/24h/7d control; each button is `range-<value>`. */
export function RangeSelector<R extends string>({ ranges, value, onChange }: RangeSelectorProps<R>) {
  return (
    <div role="group" aria-label="Time range" className="inline-flex rounded-md border border-slate-300 p-0.5 dark:border-slate-700">
      {ranges.map((r) => (
        <button
          key={r}
          type="button"
          data-testid={`range-${r}`}
          aria-pressed={r === value}
          onClick={() => onChange(r)}
          className={cn(
            "rounded px-2 py-0.5 text-xs font-medium tabular-nums",
            r === value
              ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
              : "text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800",
            focusRing,
          )}
        >
          {r}
        </button>
      ))}
    </div>
  );
}
