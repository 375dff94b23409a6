import { z } from "zod";

// In a browser, zod's JIT for object schemas first probes `new Function("")`, which the pages'
// Content-Security-Policy (no 'unsafe-eval', docs/security.md) reports as a violation. The
// browser parses small forms, so it runs without the JIT; the server keeps it. Imported first
// by lib/schemas/common.ts (before any schema is built) and by instrumentation-client.ts.
if (typeof window !== "undefined") z.config({ jitless: true });
