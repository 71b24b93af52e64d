import type { Metadata } from "next";
import { SignInPanel } from "./_components/sign-in-panel";

export const metadata: Metadata = { title: "Sign in · Rollscope" };

type SearchParams = Promise<{ returnTo?: string | string[]; error?: string | string[] }>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  return <SignInPanel returnTo={first(params.returnTo) ?? "/"} error={first(params.error) ?? null} />;
}
