import pino from "pino";
import { env } from "@/lib/env";

// Structured JSON logs. Request logs carry method, route path, status, duration and ids;
// never headers, bodies, cookies, tokens or hosted URLs. The redact list is a second
// line of defence for anything logged by mistake.
const globalForLog = globalThis as unknown as { __fosLogger?: pino.Logger };

export function logger(): pino.Logger {
  if (!globalForLog.__fosLogger) {
    globalForLog.__fosLogger = pino({
      level: env().LOG_LEVEL,
      // pid: which of a machine's server processes wrote the line (WEB_CONCURRENCY, scripts/serve.cjs).
      base: { service: "fos", pid: process.pid },
      redact: {
        paths: [
          "token",
          "*.token",
          "secret",
          "*.secret",
          "password",
          "*.password",
          "hosted_url",
          "*.hosted_url",
          "authorization",
          "*.authorization",
          "cookie",
          "*.cookie",
          "api_key",
          "*.api_key",
        ],
        censor: "[redacted]",
      },
    });
  }
  return globalForLog.__fosLogger;
}
