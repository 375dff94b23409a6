"use client";

import { createContext, useCallback, useContext, useEffect, useState } from "react";
import { useMutation } from "@/components/ui/use-mutation";

// The obligation the detail page shows, as the islands need it: its id and the version
// they send as `expected_version`. A successful mutation moves the version on at once
// (so a second action right after the first does not conflict with ourselves) and the
// server components are refreshed; a 409 tells the user and re-reads the page.
type Ctx = { obligationId: string; version: number; canWrite: boolean; setVersion: (v: number) => void };

const ObligationCtx = createContext<Ctx | null>(null);

export function ObligationProvider(props: { obligationId: string; version: number; canWrite: boolean; children: React.ReactNode }) {
  const [version, setVersion] = useState(props.version);
  // the server's version wins whenever the page is re-rendered with newer data
  useEffect(() => setVersion(props.version), [props.version]);
  return (
    <ObligationCtx.Provider value={{ obligationId: props.obligationId, version, canWrite: props.canWrite, setVersion }}>
      {props.children}
    </ObligationCtx.Provider>
  );
}

// The same, or null outside an obligation page (a component used on both kinds of page).
export function useOptionalObligation(): Ctx | null {
  return useContext(ObligationCtx);
}

export function useObligation(): Ctx {
  const c = useContext(ObligationCtx);
  if (!c) throw new Error("useObligation outside ObligationProvider");
  return c;
}

// The mutation result (invoice.version), or the obligation-context link (version).
type MutationResult = {
  invoice?: { version: number };
  version?: number;
  obligation?: { version: number }; // a credit's result
  payment_request?: { hosted_url: string; expires_at: string };
};

// One mutation of the obligation through the shared flow (components/ui/use-mutation.ts):
// the body is built with the current version, and a success moves the version on.
export function useObligationMutation() {
  const { obligationId, version, setVersion } = useObligation();
  const { submit, pending, feedback, setFeedback } = useMutation();

  const run = useCallback(
    async (path: string, build: (expectedVersion: number) => { body?: unknown; form?: FormData }, success: string) => {
      const r = await submit<MutationResult>({ path: `/obligations/${obligationId}${path}`, ...build(version), success });
      if (r.ok) {
        const v = r.data.invoice?.version ?? r.data.version ?? r.data.obligation?.version;
        if (typeof v === "number") setVersion(v);
      }
      return r;
    },
    [obligationId, version, setVersion, submit],
  );

  return { run, pending, feedback, setFeedback };
}
