import { LANGUAGE_NAMES, RECIPIENT_LANGUAGES, type RecipientLanguage } from "@/lib/i18n/recipient";

// Plain links, rendered on the server: they work before (and without) any JavaScript. The
// chosen language comes back as ?lang=xx; the page keeps it in a cookie and drops the
// parameter from the address. The session cookie carries the visit over the reload.
export function LanguageSwitcher({ current, label }: { current: RecipientLanguage; label: string }) {
  return (
    <nav aria-label={label} className="print:hidden">
      <ul className="flex flex-wrap gap-x-1 gap-y-1 text-sm">
        {RECIPIENT_LANGUAGES.map((l) => (
          <li key={l}>
            <a
              href={`?lang=${l}`}
              hrefLang={l}
              lang={l}
              aria-current={l === current ? "true" : undefined}
              data-testid={`lang-${l}`}
              className={`inline-flex min-h-11 items-center rounded-md px-2 underline-offset-2 hover:underline ${l === current ? "bg-slate-100 font-semibold text-slate-900" : "text-brand-700"}`}
            >
              {LANGUAGE_NAMES[l]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
