import { createRoot } from "react-dom/client";
import type { ApiResult } from "@/lib/client/api";
import type { PageData } from "@/lib/recipient-page/page-data";
import { AccountPortal, type AccountView } from "@/components/recipient/account-portal";

// Mounts the account island once the first requests are answered (the server's loading state stays until then).
export async function mount(data: PageData, first: Promise<ApiResult<AccountView>>) {
  const r = await first;
  const main = document.getElementById("portal");
  if (!main || !data.requestId) return;
  main.textContent = "";
  createRoot(main).render(<AccountPortal accountId={data.requestId} first={r} messages={data.messages} locale={data.locale} />);
}
