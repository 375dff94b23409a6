"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@/components/ui/use-mutation";

// DELETE /session, then the sign-in page (whatever the answer: a session that is already
// gone is signed out too).
export function SignOutButton() {
  const router = useRouter();
  const { submit, pending } = useMutation();
  return (
    <button
      type="button"
      disabled={pending}
      className="rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
      onClick={async () => {
        await submit({ method: "DELETE", path: "/session", refresh: false, signInOn401: false });
        router.replace("/login");
        router.refresh();
      }}
    >
      Sign out
    </button>
  );
}
