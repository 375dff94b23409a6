import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { connection } from "next/server";
import { isUuid } from "@/lib/ids";
import { LANGUAGE_COOKIE, catalogue, chooseLanguage } from "@/lib/i18n/recipient";
import { RecipientPortal } from "@/components/recipient/recipient-portal";
import { LanguageSwitcher } from "@/components/recipient/language-switcher";

// GET /r/{request} – the hosted payment page of a secure link (`/r/{request}#{token}`).
// A server shell around the client island that exchanges the fragment token; rendered per
// request so proxy.ts's CSP nonce reaches Next's scripts. No invoice data is rendered here:
// the token never reaches the server, and the session cookie is scoped to the recipient API.
// The server picks the language (switcher ?lang, the fos_lang cookie, Accept-Language) and
// sends the browser that one catalogue.
type Props = { params: Promise<{ request: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function language(searchParams: Props["searchParams"]) {
  const q = (await searchParams).lang;
  return chooseLanguage({
    query: typeof q === "string" ? q : null,
    cookie: (await cookies()).get(LANGUAGE_COOKIE)?.value,
    acceptLanguage: (await headers()).get("accept-language"),
  });
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const t = catalogue((await language(searchParams)).lang);
  return {
    title: t["meta.title"],
    description: t["meta.description"],
    robots: { index: false, follow: false, nocache: true, googleBot: { index: false, follow: false } },
    referrer: "no-referrer",
  };
}

export default async function RecipientPage({ params, searchParams }: Props) {
  await connection();
  const { request } = await params;
  const choice = await language(searchParams);
  const t = catalogue(choice.lang);
  return (
    <div lang={choice.lang} className="min-h-screen bg-slate-50 print:bg-white">
      <header className="border-b border-slate-200 bg-white print:border-0">
        <div className="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-x-4 px-4 py-2 text-sm text-slate-700">
          <p className="flex min-h-11 items-center gap-2">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current text-emerald-800">
              <path d="M10 1a5 5 0 0 0-5 5v3H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1V6a5 5 0 0 0-5-5Zm-3 8V6a3 3 0 1 1 6 0v3H7Z" />
            </svg>
            <span>{t["shell.secure"]}</span>
          </p>
          <LanguageSwitcher current={choice.lang} label={t["lang.label"]} />
        </div>
      </header>
      <main className="mx-auto max-w-2xl px-4 py-6 sm:py-8 print:max-w-none print:p-0">
        <RecipientPortal
          requestId={isUuid(request) ? request.toLowerCase() : null}
          messages={t}
          lang={choice.lang}
          locale={choice.formatLocale}
          explicit={choice.explicit}
        />
      </main>
      <footer className="mx-auto max-w-2xl px-4 pb-10 text-sm text-slate-700 print:hidden">
        <p>{t["shell.footer"]}</p>
      </footer>
    </div>
  );
}
