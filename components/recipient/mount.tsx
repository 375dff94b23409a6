import { createRoot } from "react-dom/client";
import type { Visit } from "@/components/recipient/boot";
import { RecipientPortal, preloadInteractions } from "@/components/recipient/recipient-portal";
import type { PageData } from "@/lib/recipient-page/page-data";

// The island takes over the <main> element once the visit's first requests are answered:
// until then the server's loading state (which reserves the invoice's height) stays as it
// is, and the island's first render is already the invoice (or the state the answer means),
// one render instead of a loading render and then the invoice.
export async function mount(data: PageData, visit: Visit | null) {
  preloadInteractions(); // the forms' chunk, in parallel with the exchange
  const first = visit ? await visit.first : null;
  const main = document.getElementById("portal");
  if (!main) return;
  main.textContent = "";
  createRoot(main).render(
    <RecipientPortal visit={visit} first={first} messages={data.messages} lang={data.lang} locale={data.locale} explicit={data.explicit} />,
  );
}
