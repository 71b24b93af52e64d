"use client";

import { useSyncExternalStore } from "react";
import { focusRing } from "./button";
import { cn } from "./cn";
import { MonitorIcon, MoonIcon, SunIcon } from "./icons";
import { applyStoredTheme, THEME_CHOICES, THEME_STORAGE_KEY, type ThemeChoice } from "./theme";

const CHANGED = "rollscope-theme-change";
const LABELS: Record<ThemeChoice, string> = { light: "Light theme", dark: "Dark theme", system: "System theme" };
const ICONS = { light: SunIcon, dark: MoonIcon, system: MonitorIcon } as const;

function readChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return THEME_CHOICES.find((c) => c === stored) ?? "system";
  } catch {
    return "system";
  }
}

/** This tab's choice, and another tab's (the storage event), which also repaints this one. */
function subscribe(onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key !== THEME_STORAGE_KEY) return;
    applyStoredTheme(THEME_STORAGE_KEY, false);
    onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGED, onChange);
  };
}

function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === "system") window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    return; // Storage is disabled in this browser: there is nowhere to keep a choice.
  }
  applyStoredTheme(THEME_STORAGE_KEY, false);
  window.dispatchEvent(new Event(CHANGED));
}

/** Light, dark or the system's theme, remembered in this browser. The server renders "system" pressed until hydration. */
export function ThemeToggle({ className }: { className?: string }) {
  const current = useSyncExternalStore(subscribe, readChoice, () => "system" as const);
  return (
    <div
      role="group"
      aria-label="Colour theme"
      data-testid="theme-toggle"
      className={cn("inline-flex shrink-0 rounded-md border border-slate-200 p-0.5 dark:border-slate-700", className)}
    >
      {THEME_CHOICES.map((choice) => {
        const Icon = ICONS[choice];
        return (
          <button
            key={choice}
            type="button"
            aria-pressed={current === choice}
            aria-label={LABELS[choice]}
            title={LABELS[choice]}
            data-theme-choice={choice}
            onClick={() => chooseTheme(choice)}
            className={cn(
              "rounded p-1 text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white",
              current === choice && "bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-white",
              focusRing,
            )}
          >
            <Icon className="size-4" />
          </button>
        );
      })}
    </div>
  );
}
