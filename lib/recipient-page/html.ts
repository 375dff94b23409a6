import { LANGUAGE_NAMES, RECIPIENT_LANGUAGES, type LanguageChoice, type RecipientMessages } from "@/lib/i18n/recipient";
import { ASSET_PATH, type RecipientManifest } from "@/lib/recipient-page/assets";
import type { PageData } from "@/lib/recipient-page/page-data";

// The HTML of /r/{request}: a complete document written here, not by the App Router, so
// the payer's phone downloads no framework runtime. It carries the inlined stylesheet, the
// shell (secure-page line, the language switcher as plain links, footer), the loading state
// the island renders first (same markup as StateScreen "loading" in
// components/recipient/state-screens.tsx, so nothing moves when the island takes over, and
// it reserves the height the invoice fills), the visit's data as JSON (not executed), and
// one module script. Every value is escaped; no invoice data is here (the token never
// reaches the server).
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// JSON inside <script type="application/json">: "<" escaped so no "</script>" can close it
const json = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

export function recipientPageHtml(input: {
  requestId: string | null;
  choice: LanguageChoice;
  t: RecipientMessages;
  nonce: string;
  manifest: RecipientManifest;
}): string {
  const { requestId, choice, t, nonce, manifest } = input;
  const data: PageData = { requestId, messages: t, lang: choice.lang, locale: choice.formatLocale, explicit: choice.explicit };
  const n = esc(nonce);
  const switcher = RECIPIENT_LANGUAGES.map((l) => {
    const current = l === choice.lang;
    const cls = `inline-flex min-h-11 items-center rounded-md px-2 underline-offset-2 hover:underline ${current ? "bg-slate-100 font-semibold text-slate-900" : "text-brand-700"}`;
    return `<li><a href="?lang=${l}" hreflang="${l}" lang="${l}"${current ? ' aria-current="true"' : ""} data-testid="lang-${l}" class="${cls}">${esc(LANGUAGE_NAMES[l])}</a></li>`;
  }).join("");
  return `<!DOCTYPE html>
<html lang="${choice.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t["meta.title"])}</title>
<meta name="description" content="${esc(t["meta.description"])}">
<meta name="robots" content="noindex, nofollow, nocache">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<style nonce="${n}">${manifest.css}</style>
<script type="module" nonce="${n}" src="${ASSET_PATH}/${manifest.entry}"></script>
${manifest.preload.map((f) => `<link rel="modulepreload" nonce="${n}" href="${ASSET_PATH}/${f}">`).join("\n")}
</head>
<body class="min-h-screen font-sans">
<div lang="${choice.lang}" class="min-h-screen bg-slate-50 print:bg-white">
<header class="border-b border-slate-200 bg-white print:border-0">
<div class="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-x-4 px-4 py-2 text-sm text-slate-700">
<p class="flex min-h-11 items-center gap-2"><svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 fill-current text-emerald-800"><path d="M10 1a5 5 0 0 0-5 5v3H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1V6a5 5 0 0 0-5-5Zm-3 8V6a3 3 0 1 1 6 0v3H7Z"/></svg><span>${esc(t["shell.secure"])}</span></p>
<nav aria-label="${esc(t["lang.label"])}" class="print:hidden"><ul class="flex flex-wrap gap-x-1 gap-y-1 text-sm">${switcher}</ul></nav>
</div>
</header>
<main id="portal" class="mx-auto max-w-2xl px-4 py-6 sm:py-8 print:max-w-none print:p-0">
<section aria-labelledby="state-title" aria-busy="true" class="min-h-[150vh] space-y-5" data-state="loading">
<div class="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
<h1 id="state-title" class="text-xl font-semibold">${esc(t["loading.title"])}</h1>
<p class="mt-2 text-slate-700" role="status">${esc(t["loading.body"])}</p>
<noscript><p class="mt-2 text-slate-800">${esc(t["loading.noscript"])}</p></noscript>
<div aria-hidden="true" class="mt-5 h-28 animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none"></div>
<div aria-hidden="true" class="mt-4 h-24 rounded-lg bg-slate-100"></div>
</div>
<div aria-hidden="true" class="h-96 rounded-xl border border-slate-200 bg-white"></div>
</section>
</main>
<footer class="mx-auto max-w-2xl px-4 pb-10 text-sm text-slate-700 print:hidden"><p>${esc(t["shell.footer"])}</p></footer>
</div>
<script type="application/json" id="page-data">${json(data)}</script>
</body>
</html>
`;
}
