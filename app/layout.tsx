import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { themeScript } from "@/components/ui/theme";
import { AppHeader } from "./_components/app-header";
import { RouteFocus } from "./_components/route-focus";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Rollscope",
  description: "Argo Rollouts across every cluster: live canary weights, plugin health, audited actions.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Before first paint: the chosen (or the system's) theme is on <html> before anything draws. */}
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen font-sans antialiased">
        <a
          href="#main"
          data-testid="skip-link"
          className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-sky-800 shadow-md focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 dark:bg-slate-900 dark:text-sky-300"
        >
          Skip to content
        </a>
        <Providers>
          <AppHeader />
          <RouteFocus />
          <main id="main" tabIndex={-1} className="mx-auto w-full max-w-[2560px] px-4 py-4 lg:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
