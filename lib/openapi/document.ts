import { z } from "zod";
import type { Operation } from "@/lib/http/operation";
import { ZError } from "@/lib/schemas/common";
import { ERROR_STATUS } from "@/lib/errors";
import { isScope } from "@/lib/auth/permissions";
import { ALL_OPERATIONS } from "@/lib/operations";
import { OPENAPI_INTRO } from "@/lib/openapi/intro";
import { webhooksSection } from "@/lib/openapi/webhooks";

// The OpenAPI 3.1 document, generated from the same operation declarations and zod
// schemas the route handlers validate with. Served at GET /api/v1/openapi.json.
export const API_VERSION = "0.2.2";

type JsonSchema = Record<string, unknown>;

// Schemas carrying `.meta({ id })` become shared components (#/components/schemas/{id})
// instead of being repeated inline in every operation; filled while the document is built.
let componentSchemas: Record<string, JsonSchema> = {};

function toSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const s = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", reused: "inline" }) as JsonSchema;
  delete s.$schema;
  const defs = s.$defs as Record<string, JsonSchema> | undefined;
  delete s.$defs;
  if (!defs) return s;
  const names = new Map<string, string>();
  for (const [id, def] of Object.entries(defs)) {
    const seen = componentSchemas[id];
    const same = !seen || JSON.stringify(seen) === JSON.stringify(def).replaceAll('"#/$defs/', '"#/components/schemas/');
    names.set(id, same ? id : `${id}${io === "input" ? "Input" : "Output"}`);
  }
  const relink = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(relink);
    if (v && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [
          k,
          k === "$ref" && typeof x === "string" && x.startsWith("#/$defs/") ? `#/components/schemas/${names.get(x.slice(8)) ?? x.slice(8)}` : relink(x),
        ]),
      );
    }
    return v;
  };
  for (const [id, def] of Object.entries(defs)) {
    const name = names.get(id);
    if (name) componentSchemas[name] = relink(def) as JsonSchema;
  }
  return relink(s) as JsonSchema;
}

const codesByStatus = (status: number) =>
  Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([c]) => `\`${c}\``)
    .join(", ");

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Malformed request or missing/invalid Idempotency-Key",
  401: "No, unknown, revoked or expired credential or session",
  403: "Insufficient scope, permission or missing request marker",
  404: "Unknown id, malformed id, or an id of another organization",
  409: "Conflict: version, state, or an idempotent request still in progress",
  410: "The hosted payment request was revoked or has expired",
  413: "Body or upload above the size limit",
  415: "Upload content type not allowed, or a request without an API key from another origin that is not application/json",
  422: "Validation failed, idempotency key reused, or a business rule refused the request",
  429: "Rate limited; see Retry-After",
  500: "Internal error (no details are disclosed)",
  503: "The database is unavailable: nothing was changed; retry after `Retry-After` seconds (with the same Idempotency-Key)",
};

function errorStatuses(op: Operation): number[] {
  const s = new Set<number>([500, 503]);
  if (op.auth !== "none") s.add(401);
  if (op.auth !== "none" && op.auth !== "cron") s.add(429); // API_RATE_LIMIT_PER_MINUTE
  if (op.permission || op.requestMarker) s.add(403);
  if (op.params) s.add(404);
  if (op.idempotent || op.body || op.multipart) s.add(400);
  if (op.idempotent) {
    s.add(409);
    s.add(422);
  }
  if (op.body || op.multipart || op.query) s.add(422);
  if (op.body || op.multipart) s.add(413);
  if (op.multipart || op.method !== "GET") s.add(415);
  if (op.path.startsWith("/recipient")) s.add(429); // RECIPIENT_RATE_LIMIT_PER_MINUTE, the session exchange included
  if (op.auth === "recipient") s.add(410);
  for (const e of op.errors ?? []) s.add(e);
  return [...s].sort();
}

function parameters(op: Operation): unknown[] {
  const out: unknown[] = [];
  const add = (where: "path" | "query", obj: z.ZodObject | undefined) => {
    if (!obj) return;
    const js = toSchema(obj, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(js.properties ?? {})) {
      const { description, deprecated, ...rest } = schema as JsonSchema & { description?: string; deprecated?: boolean };
      out.push({
        name,
        in: where,
        required: where === "path" ? true : (js.required ?? []).includes(name) && rest.default === undefined,
        ...(description ? { description } : {}),
        ...(deprecated ? { deprecated: true } : {}),
        schema: rest,
      });
    }
  };
  add("path", op.params);
  add("query", op.query);
  if (op.idempotent) {
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: op.idempotent === "required",
      description:
        "Unique key for this operation (8 to 200 characters). A retry with the same key and body replays the stored response with `Idempotent-Replayed: true`.",
      schema: { type: "string", minLength: 8, maxLength: 200 },
    });
  }
  if (op.requestMarker) {
    out.push({ name: "X-Service-Request", in: "header", required: true, description: "Request marker; must be `1`.", schema: { type: "string", const: "1" } });
  }
  return out;
}

function security(op: Operation): unknown[] {
  switch (op.auth) {
    case "none":
      return [];
    case "issuer_session":
      return [{ issuerSession: [] }];
    case "recipient":
      return [{ recipientSession: [] }];
    case "cron":
      return [{ cronSecret: [] }];
    default:
      // Administration is never an API key scope: only a session can call it.
      if (op.permission && !isScope(op.permission)) return [{ issuerSession: [] }];
      return [{ apiKey: op.permission ? [op.permission] : [] }, { issuerSession: [] }];
  }
}

function operationObject(op: Operation) {
  const responses: Record<string, unknown> = {};
  for (const success of [op.success, ...(op.otherSuccess ?? [])]) {
    const okContent = success.contentType ?? "application/json";
    responses[String(success.status)] = {
      description: success.description,
      ...(success.headers ? { headers: success.headers } : {}),
      ...(success.schema || okContent !== "application/json"
        ? {
            content: {
              [okContent]: {
                schema: success.schema ? toSchema(success.schema, "output") : { type: "string", format: "binary" },
                ...(success.example !== undefined ? { example: success.example } : {}),
              },
            },
          }
        : {}),
    };
  }
  for (const status of errorStatuses(op)) responses[String(status)] = { $ref: `#/components/responses/Error${status}` };

  let requestBody: unknown;
  if (op.body) {
    requestBody = {
      required: true,
      content: { "application/json": { schema: toSchema(op.body, "input"), ...(op.bodyExample !== undefined ? { example: op.bodyExample } : {}) } },
    };
  } else if (op.multipart) {
    const fields = toSchema(op.multipart, "input") as { properties?: Record<string, unknown>; required?: string[] };
    requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              ...fields.properties,
              file: { type: "string", format: "binary", description: "The file (at most 10 MiB; PDF, PNG, JPEG, WebP, CSV, plain text or XML)" },
            },
            required: [...(fields.required ?? []), "file"],
          },
        },
      },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: op.tags,
    ...(op.deprecated ? { deprecated: true } : {}),
    security: security(op),
    parameters: parameters(op),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

const SECURITY_SCHEMES = {
  cronSecret: {
    type: "http",
    scheme: "bearer",
    description: "The scheduler secret: `Authorization: Bearer $CRON_SECRET` (the endpoint is 404 while CRON_SECRET is unset).",
  },
  apiKey: {
    type: "http",
    scheme: "bearer",
    description:
      "Organization API key: `Authorization: Bearer <API_KEY>`. Scopes: obligations:read, obligations:write, payments:read, payments:write, contexts:read, contexts:write, webhooks:read, webhooks:write.",
  },
  issuerSession: {
    type: "apiKey",
    in: "cookie",
    name: "fos_session",
    description:
      "Issuer user session cookie from POST /session: `fos_session` on plain http, `__Host-fos_session` (Secure) whenever the service is served over https. Roles: owner, admin (all), member (all but webhooks), viewer (reads; never the hosted URL). A mutation sent with this cookie from another origin must be application/json (else 415).",
  },
  recipientSession: {
    type: "apiKey",
    in: "cookie",
    name: "fos_recipient",
    description:
      "Recipient session cookie set by the session exchange (HttpOnly, SameSite=Strict, Secure over https, Max-Age = RECIPIENT_SESSION_TTL_HOURS, default 12 h). Single-link family: `fos_recipient` with Path=/api/v1/recipient. Request-scoped family: `fos_recipient_{request}` with Path=/api/v1/recipient/contexts/{request}, so two links in one browser never interfere. Over https the names carry the `__Secure-` prefix.",
  },
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  Sessions: "Individual issuer users: sign in, sign out, change password.",
  Obligations: "System-neutral obligations with conditions, payment terms and hosted payment requests.",
  Invoices: "The invoice source adapter over obligations.",
  Payments: "Observed payments (never money movement) and their allocation to obligations.",
  "Business contexts": "Companies, projects, orders, invoices and external objects, related without a fixed hierarchy.",
  Recipient: "Calls of the secure-link holder (no account): session exchange, invoice, actions, documents.",
  Webhooks: "Signed webhook destinations, delivery attempts and retries.",
  "Payment instructions": "Where and how payers send money, per currency: shown on the hosted payment page with the RF payment reference.",
  System: "Service documents and operations.",
};

export function buildOpenApiDocument(serverUrl = "/api/v1") {
  componentSchemas = {};
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<number>();
  const usedSchemes = new Set<string>();
  for (const op of ALL_OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = operationObject(op);
    for (const s of errorStatuses(op)) used.add(s);
    for (const req of security(op) as Record<string, unknown>[]) for (const k of Object.keys(req)) usedSchemes.add(k);
  }
  const errorSchema = toSchema(ZError, "output");
  const responses = Object.fromEntries(
    Object.keys(ERROR_DESCRIPTIONS)
      .filter((s) => used.has(Number(s)))
      .map((s) => [
        `Error${s}`,
        {
          description: `${ERROR_DESCRIPTIONS[Number(s)]}. Codes: ${codesByStatus(Number(s))}.`,
          ...(s === "429" || s === "409" || s === "503" ? { headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } } } : {}),
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      ]),
  );
  const tags = [...new Set(ALL_OPERATIONS.flatMap((o) => o.tags))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  const securitySchemes = Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([k]) => usedSchemes.has(k)));
  return {
    openapi: "3.1.0",
    info: {
      title: "Financial Obligations Service API",
      version: API_VERSION,
      description: OPENAPI_INTRO,
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [{ url: serverUrl }],
    tags,
    paths,
    webhooks: webhooksSection(toSchema),
    components: {
      schemas: { Error: errorSchema, ...componentSchemas },
      responses,
      securitySchemes,
    },
  };
}
