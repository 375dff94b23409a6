"use client";

import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";

export function SignOutButton() {
  const router = useRouter();
  return (
    <button
      type="button"
      className="rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
      onClick={async () => {
        await apiCall("DELETE", "/session");
        router.replace("/login");
        router.refresh();
      }}
    >
      Sign out
    </button>
  );
}
