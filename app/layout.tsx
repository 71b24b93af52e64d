import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { AppHeader } from "./_components/app-header";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Rollscope",
  description: "Argo Rollouts across every cluster: live canary weights, plugin health, audited actions.",
};

// Runs before first paint so a dark system theme never flashes light; follows later system changes too.
const themeScript = `(function(){try{var m=window.matchMedia("(prefers-color-scheme: dark)");var a=function(){document.documentElement.classList.toggle("dark",m.matches)};a();m.addEventListener("change",a)}catch(e){}})();`;

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen font-sans antialiased">
        <Providers>
          <AppHeader />
          <main id="main" className="mx-auto w-full max-w-[2560px] px-4 py-4 lg:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
