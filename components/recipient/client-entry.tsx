import { createRoot } from "react-dom/client";
import { RecipientPortal } from "@/components/recipient/recipient-portal";
import type { PageData } from "@/lib/recipient-page/page-data";

// The one script of /r/{request}, bundled by scripts/build-recipient.mjs with esbuild (no
// Next.js client runtime). The server sent the shell, the loading state and this visit's
// data (the request id, the chosen language's catalogue, the locale) as JSON; the island
// takes over the <main> element and renders the same loading state before the exchange.
const data = JSON.parse(document.getElementById("page-data")!.textContent!) as PageData;
createRoot(document.getElementById("portal")!).render(
  <RecipientPortal requestId={data.requestId} messages={data.messages} lang={data.lang} locale={data.locale} explicit={data.explicit} />,
);
