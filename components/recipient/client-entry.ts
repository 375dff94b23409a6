import { startVisit } from "@/components/recipient/boot";
import type { PageData } from "@/lib/recipient-page/page-data";

// The one script of /r/{request}, bundled by scripts/build-recipient.mjs with esbuild (no
// Next.js client runtime). Kept tiny so that it runs early: it starts the link exchange and
// the invoice request at once (components/recipient/boot.ts), then mounts the island from
// its own chunk, which the HTML modulepreloads so it downloads in parallel. The server sent
// the shell, the loading state and this visit's data (the request id, the chosen language's
// catalogue, the locale) as JSON.
const data = JSON.parse(document.getElementById("page-data")?.textContent ?? "null") as PageData;
const visit = startVisit(data.requestId);
void import("@/components/recipient/mount").then((m) => m.mount(data, visit));
