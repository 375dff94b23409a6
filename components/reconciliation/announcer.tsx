"use client";

import { createContext, useContext, useState } from "react";

const Announce = createContext<((text: string) => void) | null>(null);

// A status line that outlives the row it speaks about: an accepted payment leaves the list of
// unallocated payments when the page is re-read, and its confirmation must not leave with it.
export function Announcer({ children }: { children: React.ReactNode }) {
  const [text, setText] = useState("");
  return (
    <Announce.Provider value={setText}>
      <p role="status" className={text ? "rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800" : "sr-only"}>
        {text}
      </p>
      {children}
    </Announce.Provider>
  );
}

// null outside an Announcer: the caller shows its own message then.
export const useAnnounce = () => useContext(Announce);
