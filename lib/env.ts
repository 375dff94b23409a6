import { trimEndChar } from "@/lib/strings";
import { z } from "zod";

// The one place that reads process.env. Everything else imports `env()`.
const ZBool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const ZEnv = z
  .object({
    NODE_ENV: z.string().default("production"),
    DATABASE_URL: z.string().optional(),
    DATA_DIR: z.string().default("./.data"),
    APP_SECRET: z.string().min(32, "APP_SECRET must be at least 32 characters").optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    PUBLIC_BASE_URL: z.string().url().optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    // A transaction-mode pooler (PgBouncer pool_mode = transaction) between the service and
    // PostgreSQL: no state that outlives a transaction (lib/db/client.ts, docs/scaling.md).
    DATABASE_POOLER: z.enum(["none", "transaction"]).default("none"),
    // The database itself, past the pooler: migrations and anything that needs a session.
    DIRECT_DATABASE_URL: z.string().optional(),
    // how the server process answers /api/v1 (scripts/server.mjs, lib/http/api-server.ts)
    API_SERVER: z.enum(["direct", "next"]).default("direct"),
    CRON_SECRET: z.string().min(16).optional(),
    SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
    RECIPIENT_SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
    PAYMENT_REQUEST_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(10 * 1024 * 1024),
    MAX_JSON_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(1024 * 1024),
    // Uploaded files are parsed in worker threads (lib/uploads/parse-pool.ts): how many, and
    // each parse's limits (a file over them is refused with a 4xx).
    UPLOAD_PARSE_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
    UPLOAD_PARSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
    UPLOAD_PARSE_MEMORY_MB: z.coerce.number().int().min(64).default(384),
    IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().min(24).default(48),
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
    LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(0),
    // What a link holder may add (docs/security.md, "Bounds"): state-changing recipient calls
    // per link per minute (0: off), and per obligation the payer's messages, documents and
    // the bytes of both; payer messages that send webhooks per obligation per hour.
    RECIPIENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(60),
    RECIPIENT_MAX_MESSAGES: z.coerce.number().int().min(0).default(200),
    RECIPIENT_MAX_DOCUMENTS: z.coerce.number().int().min(0).default(50),
    RECIPIENT_MAX_STORED_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(50 * 1024 * 1024),
    RECIPIENT_MESSAGE_WEBHOOKS_PER_HOUR: z.coerce.number().int().min(0).default(10),
    // How many reverse proxies in front of the server append to X-Forwarded-For
    // (lib/http/client-address.ts). 0: the client is the socket's peer, the header is ignored.
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(16).default(0),
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .default("0,5,300,1800,7200,18000,36000,36000")
      .transform((s, ctx) => {
        const parts = s.split(",").map((p) => p.trim());
        const nums = parts.map(Number);
        if (parts.length === 0 || nums.some((n) => !Number.isInteger(n) || n < 0)) {
          ctx.addIssue({ code: "custom", message: "WEBHOOK_RETRY_SCHEDULE must be a comma list of whole seconds" });
          return z.NEVER;
        }
        return nums;
      }),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: ZBool,
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    WEBHOOK_WORKER: z.enum(["on", "off"]).default("on"),
    WEBHOOK_WORKER_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
    // Scheduled events sweep of each instance (lib/scheduler/worker.ts); 0 or "off" disables it.
    SCHEDULER_INTERVAL_MS: z
      .union([z.literal("off"), z.coerce.number().int().min(0)])
      .default(60_000)
      .transform((v) => (v === "off" ? 0 : v)),
    SCHEDULER_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(100),
    // Dashboard overview (lib/overview/load-overview.ts): computed live up to this many obligations
    // in the organization, above it read from a snapshot the scheduler's worker refreshes when
    // older than OVERVIEW_SNAPSHOT_MAX_AGE_SECONDS.
    OVERVIEW_LIVE_MAX: z.coerce.number().int().min(0).default(5000),
    OVERVIEW_SNAPSHOT_MAX_AGE_SECONDS: z.coerce.number().int().min(1).default(600),
    DEMO_SEED: z.enum(["on", "off"]).default("on"),
    // Reminders by email (lib/reminders/mailer.ts, docs/reminders.md): the SMTP server
    // (smtp://user:pass@host:587, smtps://... for implicit TLS) and the From address. Without
    // SMTP_URL, the email channel falls back to the webhook event.
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    SMTP_FROM: z.string().min(3).max(320).default("reminders@localhost"),
    // Single sign-on through any OpenID Connect provider (discovery at
    // {OIDC_ISSUER}/.well-known/openid-configuration). All three or none.
    OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_NAME: z.string().min(1).max(60).default("single sign-on"),
  })
  .superRefine((e, ctx) => {
    const set = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].filter((v) => v !== undefined && v !== "").length;
    if (set !== 0 && set !== 3) {
      ctx.addIssue({ code: "custom", path: ["OIDC_ISSUER"], message: "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together or not at all" });
    }
  });

export type TEnv = z.infer<typeof ZEnv>;

let cached: TEnv | undefined;

export function env(): TEnv {
  if (!cached) {
    const parsed = ZEnv.safeParse(process.env);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new Error(`Invalid configuration: ${detail}`);
    }
    cached = parsed.data;
  }
  return cached;
}

export function publicBaseUrl(): string {
  const e = env();
  return trimEndChar(e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`, "/");
}

export type OidcConfig = { issuer: string; clientId: string; clientSecret: string; name: string };

export function oidcConfig(): OidcConfig | undefined {
  const e = env();
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET) return undefined;
  return { issuer: trimEndChar(e.OIDC_ISSUER, "/"), clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, name: e.OIDC_NAME };
}

export function appSecret(): string {
  const s = env().APP_SECRET;
  if (!s) throw new Error("APP_SECRET is not set (the start script sets it from DATA_DIR for the embedded database)");
  return s;
}
