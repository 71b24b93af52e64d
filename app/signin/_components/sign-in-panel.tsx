"use client";

import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { safeReturnTo } from "@/lib/format/return-to";
import { useSession } from "@/lib/queries/use-session";
import { withBasePath } from "@/lib/format/base-path";

export function SignInPanel({ returnTo, error }: { returnTo: string; error: string | null }) {
  const { data: session, error: loadError, isPending } = useSession();
  const target = safeReturnTo(returnTo);
  return (
    <div className="mx-auto mt-16 flex w-full max-w-md flex-col gap-4">
      <Card className="p-6" data-testid="signin-panel">
        <h1 className="text-lg font-semibold tracking-tight">Sign in to Rollscope</h1>
        {error && <ErrorState title="Sign-in failed" message={error} className="mt-4" />}
        {isPending ? (
          <SkeletonRows rows={2} className="mt-4" />
        ) : !session ? (
          <ErrorState title="Could not reach Rollscope" message={loadError?.message} className="mt-4" />
        ) : session.user && session.mode !== "none" ? (
          <div className="mt-4 flex flex-col gap-3 text-sm">
            <p data-testid="signed-in-as">
              Signed in as <span className="font-semibold">{session.user.name}</span>
              {session.user.groups.length > 0 && (
                <span className="text-slate-500 dark:text-slate-400"> ({session.user.groups.join(", ")})</span>
              )}
            </p>
            <Link href={target} className={buttonClasses("primary", "self-start")}>
              Continue
            </Link>
          </div>
        ) : session.mode === "oidc" ? (
          <div className="mt-4 flex flex-col gap-3 text-sm">
            <p className="text-slate-600 dark:text-slate-300">
              Sign in with your organisation&apos;s identity provider. What you may do in each cluster is decided by its Kubernetes RBAC.
            </p>
            {/* A plain link, not a form: the redirect to the provider is a navigation. */}
            <a
              href={withBasePath(`/api/auth/signin?returnTo=${encodeURIComponent(target)}`)}
              className={buttonClasses("primary", "self-start")}
              data-testid="signin-oidc"
            >
              Sign in with SSO
            </a>
          </div>
        ) : session.mode === "proxy" ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
            Rollscope takes your identity from the sign-in proxy in front of it. Open Rollscope through that proxy&apos;s address to sign
            in.
          </p>
        ) : (
          <div className="mt-4 flex flex-col gap-3 text-sm">
            <p className="text-slate-600 dark:text-slate-300">Sign-in is not enabled (auth mode none). {session.identityNote}.</p>
            <Link href={target} className={buttonClasses("secondary", "self-start")}>
              Continue
            </Link>
          </div>
        )}
      </Card>
    </div>
  );
}
