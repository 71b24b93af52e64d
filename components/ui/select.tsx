import type { SelectHTMLAttributes } from "react";
import { focusRing } from "./button";
import { cn } from "./cn";

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: string[];
  /** Text of the "no filter" option. */
  allLabel: string;
}

/**
 * A labelled native select with an "all" option whose value is the empty string. Its value is a filter the URL holds,
 * so the browser must not restore an earlier value on back/forward (autocomplete off): a restored value would show
 * a filter the page does not apply, and React does not correct it while hydrating.
 */
export function Select({ label, options, allLabel, className, value, ...rest }: SelectProps) {
  const current = typeof value === "string" ? value : "";
  return (
    <label className={cn("flex flex-col gap-0.5 text-xs text-slate-500 dark:text-slate-400", className)}>
      <span>{label}</span>
      <select
        value={current}
        autoComplete="off"
        className={cn(
          "h-8 min-w-36 max-w-64 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
          focusRing,
        )}
        {...rest}
      >
        <option value="">{allLabel}</option>
        {current && !options.includes(current) && <option value={current}>{current}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
