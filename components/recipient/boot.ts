import type { ApiError } from "@/lib/client/api";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { type RecipientApi, recipientApi } from "@/components/recipient/recipient-api";

// The first thing the page's script does, before the rendering code has even arrived: take
// the token out of the address (history.replaceState), exchange it for the session cookie
// and then load the invoice, in parallel with the download of the rendering chunk (which
// the HTML modulepreloads). The island picks the outcome up when it mounts.
// The token stays in memory only, and only as long as the exchange has not succeeded (a
// retry after a failed exchange reuses it with the same Idempotency-Key).
export type FirstLoad =
  | { stage: "exchange"; error: ApiError }
  | { stage: "invoice"; result: { ok: true; data: TRecipientInvoice } | { ok: false; error: ApiError } };

export type Visit = { api: RecipientApi; token: string | null; exchangeKey: string; first: Promise<FirstLoad> };

export function startVisit(requestId: string | null): Visit | null {
  if (!requestId) return null;
  const api = recipientApi(requestId);
  const hash = window.location.hash.replace(/^#/, "");
  if (hash) window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}`);
  const visit: Visit = { api, token: hash || null, exchangeKey: newIdempotencyKey(), first: Promise.resolve(null as never) };
  visit.first = (async (): Promise<FirstLoad> => {
    if (visit.token) {
      const r = await api.exchange(visit.token, visit.exchangeKey);
      if (!r.ok) return { stage: "exchange", error: r.error };
      visit.token = null;
    }
    return { stage: "invoice", result: await api.invoice() };
  })();
  return visit;
}
