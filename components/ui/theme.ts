export const THEME_STORAGE_KEY = "rollscope-theme";
export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/**
 * Puts `dark` on <html> for the stored choice; "system" (or nothing stored) follows the OS preference, and with
 * `followSystem` keeps following it. Runs inline before first paint, serialised with toString(), so it must stay
 * self-contained: no imports, no closures over module scope.
 */
export function applyStoredTheme(storageKey: string, followSystem: boolean): void {
  try {
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const apply = () => {
      const choice = window.localStorage.getItem(storageKey);
      document.documentElement.classList.toggle("dark", choice === "dark" || (choice !== "light" && media.matches));
    };
    apply();
    if (followSystem) media.addEventListener("change", apply);
  } catch {
    // Storage or matchMedia unavailable: the light theme stays.
  }
}

/** The <head> script: the theme is on <html> before anything paints, so a dark choice never flashes light. */
export const themeScript = `(${applyStoredTheme.toString()})(${JSON.stringify(THEME_STORAGE_KEY)}, true);`;
