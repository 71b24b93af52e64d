"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { signOutPath } from "@/lib/contracts/session";
import { fetchJson } from "@/lib/queries/fetch-json";
import { getCsrfToken, useSession } from "@/lib/queries/use-session";
import { withBasePath } from "@/lib/format/base-path";

/**
 * Who is signed in and on whose authority actions run, for the app header: "Signed in as alice · Sign out",
 * "Sign in" when signed out (mode oidc), or "No sign-in" in mode none; the whole sentence (that actions then run as
 * the kubeconfig identity) is its title and what a screen reader reads.
 */
export function SessionStatus({ className }: { className?: string }) {
  const { data: session } = useSession();
  const client = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);
  if (!session) return null;
  const title = session.user?.groups.length ? `${session.identityNote}\nGroups: ${session.user.groups.join(", ")}` : session.identityNote;

  const signOut = async () => {
    setSigningOut(true);
    try {
      const token = await getCsrfToken(client);
      await fetchJson(signOutPath(), { method: "POST", headers: { "x-csrf-token": token } });
      window.location.assign(withBasePath("/signin"));
    } finally {
      setSigningOut(false);
    }
  };

  return (
    <div
      data-testid="session-status"
      className={cn("flex min-w-0 items-center gap-2 text-xs text-slate-600 dark:text-slate-400", className)}
    >
      <span className="min-w-0 truncate" title={title}>
        <span aria-hidden>{session.identityLabel}</span>
        <span className="sr-only">{session.identityNote}</span>
      </span>
      {session.readOnly && <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 font-medium dark:bg-slate-800">read-only</span>}
      {session.mode === "oidc" && session.user && (
        <Button variant="ghost" className="px-1.5 py-0.5 text-xs" onClick={signOut} disabled={signingOut}>
          Sign out
        </Button>
      )}
      {session.mode === "oidc" && !session.user && session.signInUrl && (
        <a href={session.signInUrl} className={buttonClasses("secondary", "px-1.5 py-0.5 text-xs")}>
          Sign in
        </a>
      )}
    </div>
  );
}
