"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { focusRing } from "./button";
import { cn } from "./cn";

/** Whether the element's content is wider than the element, kept up to date as either changes size. */
function useOverflowsX(ref: React.RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    measure();
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

interface ScrollAreaProps {
  /** Names the region for screen readers, e.g. "Rollouts table". */
  label: string;
  className?: string;
  children: ReactNode;
}

/**
 * A box that scrolls sideways when a wide table does not fit (a phone), so the page itself never does. While it
 * scrolls it is a named, focusable region: keyboard users scroll it with the arrow keys (WCAG 2.1.1).
 */
export function ScrollArea({ label, className, children }: ScrollAreaProps) {
  const ref = useRef<HTMLDivElement>(null);
  const scrollable = useOverflowsX(ref);
  return (
    <div
      ref={ref}
      role={scrollable ? "region" : undefined}
      aria-label={scrollable ? label : undefined}
      tabIndex={scrollable ? 0 : undefined}
      data-scrollable={scrollable}
      // relative: absolutely positioned content (a screen-reader-only header) is contained too, not only flowing content.
      className={cn("relative overflow-x-auto", focusRing, className)}
    >
      {children}
    </div>
  );
}
