"use client";

import { useState } from "react";
import { focusRing } from "./button";
import { cn } from "./cn";

/** Beyond this many characters a message is cut, with a button to show it all (a 200 KB event message stays one line). */
const LONG_TEXT_LIMIT = 300;

/**
 * Beyond this many characters a hover title is cut. Larger than {@link LONG_TEXT_LIMIT}: a title is the only place a
 * one-line reason shows in full, and a message built from Kubernetes names (253 characters each, a plugin's
 * `owner/name`, a cluster's name) must fit whole; only a message from the cluster that runs to kilobytes is cut.
 */
const TITLE_TEXT_LIMIT = 1_200;

/** `text` for a hover title: whole up to {@link TITLE_TEXT_LIMIT} characters, then cut with "…". */
export function clipTitle(text: string): string {
  return text.length > TITLE_TEXT_LIMIT ? `${text.slice(0, TITLE_TEXT_LIMIT)}…` : text;
}

/** A message from the cluster shown cut to {@link LONG_TEXT_LIMIT} characters, with "show all" / "show less". */
export function LongText({ text, className, limit = LONG_TEXT_LIMIT }: { text: string; className?: string; limit?: number }) {
  const [open, setOpen] = useState(false);
  const long = text.length > limit;
  return (
    <span className={cn("wrap-anywhere whitespace-pre-line", className)} data-testid="long-text" data-truncated={long && !open}>
      {long && !open ? `${text.slice(0, limit)}…` : text}
      {long && (
        <>
          {" "}
          <button
            type="button"
            className={cn("rounded text-xs font-medium text-sky-700 underline hover:no-underline dark:text-sky-300", focusRing)}
            onClick={() => setOpen((v) => !v)}
            aria-expanded={open}
            data-testid="long-text-toggle"
          >
            {open ? "show less" : `show all (${text.length.toLocaleString("en")} characters)`}
          </button>
        </>
      )}
    </span>
  );
}
