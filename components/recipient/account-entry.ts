import { apiCall, type ApiResult } from "@/lib/client/api";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import type { PageData } from "@/lib/recipient-page/page-data";
import type { AccountView } from "@/components/recipient/account-portal";

// The one script of /a/{account} (scripts/build-recipient.mjs): takes the token out of the
// address, exchanges it for the account's cookie and loads the account, while the rendering
// chunk downloads; then mounts the island. The token stays in memory only.
const data = JSON.parse(document.getElementById("page-data")?.textContent ?? "null") as PageData;
const id = data.requestId;
const token = window.location.hash.replace(/^#/, "");
if (token) window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}`);
const first = (async (): Promise<ApiResult<AccountView>> => {
  if (!id) return { ok: false, error: { status: 404, code: "not_found", message: "" } };
  if (token) {
    const r = await apiCall("POST", `/recipient/accounts/${id}/session`, {
      body: { token },
      idempotencyKey: newIdempotencyKey(),
      headers: { "x-service-request": "1" },
    });
    if (!r.ok) return r;
  }
  return apiCall<AccountView>("GET", `/recipient/accounts/${id}`);
})();
void import("@/components/recipient/account-mount").then((m) => m.mount(data, first));
