"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

/** How long a page may take to render its heading (data still loading) before focus stays on <main>. */
const HEADING_WAIT_MS = 10_000;

function focusWithoutScroll(element: HTMLElement): void {
  if (!element.hasAttribute("tabindex")) element.tabIndex = -1;
  element.focus({ preventScroll: true });
}

/** Focuses the page's <h1>, or <main> until the heading renders; stops if the user moves focus meanwhile. */
function focusPageHeading(main: HTMLElement): () => void {
  const heading = () => main.querySelector<HTMLElement>("h1");
  const found = heading();
  if (found) {
    focusWithoutScroll(found);
    return () => undefined;
  }
  focusWithoutScroll(main);
  const observer = new MutationObserver(() => {
    const late = heading();
    if (!late) return;
    if (document.activeElement === main) focusWithoutScroll(late);
    observer.disconnect();
  });
  observer.observe(main, { childList: true, subtree: true });
  const timer = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}

/**
 * After a client-side navigation, moves focus to the new page's heading, as a full page load would start there:
 * keyboard users continue from the content, screen readers announce the new page. Filter changes (same path) keep focus.
 */
export function RouteFocus() {
  const pathname = usePathname();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.getElementById("main");
    return main ? focusPageHeading(main) : undefined;
  }, [pathname]);
  return null;
}
