"use client";

import { useEffect, useState } from "react";

// The token of a one-time link lives in the URL's fragment (never sent to a server). Read
// once, then removed from the address bar so that it does not linger in history.
export function useLinkToken(): string | null | undefined {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const t = window.location.hash.slice(1);
    setToken(t || null);
    if (t) window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }, []);
  return token;
}
