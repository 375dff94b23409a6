import Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv";
import { fetchOnce } from "./api";

// Every response the integration tests receive through the test clients (Api,
// RecipientClient) is checked here against the served OpenAPI document: the operation's
// declared statuses, and for JSON the schema declared for that status. A mismatch fails the
// test, so the code and the document cannot drift apart.
type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: Record<string, any> };
type Op = { method: string; template: string; pattern: RegExp; responses: Record<string, any> };
type Contract = { ops: Op[]; resolve: (r: any) => any; validator: (schema: unknown) => ValidateFunction };

const contracts = new Map<string, Promise<Contract>>();

const FORMATS: Record<string, RegExp | true> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  date: /^\d{4}-\d{2}-\d{2}$/,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i,
};

async function load(baseUrl: string): Promise<Contract> {
  const doc = (await (await fetchOnce(`${baseUrl}/api/v1/openapi.json`, {})).json()) as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  const formats = new Set<string>();
  JSON.stringify(doc, (k, v) => {
    if (k === "format" && typeof v === "string") formats.add(v);
    return v;
  });
  for (const f of formats) ajv.addFormat(f, FORMATS[f] ?? true);
  const relinked = JSON.parse(JSON.stringify(doc).replaceAll('"$ref":"#/components/', '"$ref":"openapi#/components/'));
  ajv.addSchema({ $id: "openapi", components: relinked.components });
  const cache = new Map<unknown, ValidateFunction>();
  const ops: Op[] = [];
  for (const [template, item] of Object.entries(relinked.paths as Doc["paths"])) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\\{\w+\\\}|\{\w+\}/g, "[^/]+")}$`);
    for (const [method, op] of Object.entries(item)) ops.push({ method: method.toUpperCase(), template, pattern, responses: op.responses });
  }
  // Literal paths before templated ones (/obligations/summary before /obligations/{id}).
  ops.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  const resolve = (r: any) => {
    const ref = r?.$ref as string | undefined;
    if (!ref) return r;
    return ref
      .replace(/^openapi#\//, "")
      .split("/")
      .reduce((o: any, k) => o?.[k], relinked);
  };
  const validator = (schema: unknown) => {
    let v = cache.get(schema);
    if (!v) {
      v = ajv.compile(schema as object);
      cache.set(schema, v);
    }
    return v;
  };
  return { ops, resolve, validator };
}

export async function checkAgainstDocument(
  baseUrl: string,
  method: string,
  path: string, // relative to /api/v1, may carry a query
  res: { status: number; headers: Headers; body: unknown; text: string },
): Promise<void> {
  const pathname = path.split("?")[0];
  if (pathname === "/openapi.json") return;
  let c = contracts.get(baseUrl);
  if (!c) {
    c = load(baseUrl);
    contracts.set(baseUrl, c);
    c.catch(() => contracts.delete(baseUrl)); // a failed load is retried by the next call, never cached
  }
  const { ops, resolve, validator } = await c;
  const op = ops.find((o) => o.method === method && o.pattern.test(pathname));
  if (!op) return; // not an endpoint of the document (answered by the catch-all 404)
  // proxy.ts answers a path Next.js normalizes onto another route (`/payments/%2e/x`) before any operation.
  if (res.status === 405 && (res.body as { error?: { code?: string } })?.error?.code === "method_not_allowed") return;
  const where = `${method} ${path} -> ${res.status} (${op.method} ${op.template})`;
  const declared = resolve(op.responses[String(res.status)]);
  if (!declared) throw new Error(`response drift: ${where}: status not declared in the OpenAPI document; body ${res.text.slice(0, 300)}`);
  const content = declared.content as Record<string, { schema?: unknown }> | undefined;
  const type = res.headers.get("content-type")?.split(";")[0].trim();
  if (!content) {
    if (res.text !== "") throw new Error(`response drift: ${where}: the document declares no body, got ${res.text.slice(0, 200)}`);
    return;
  }
  if (type !== "application/json") {
    if (!type || (!(type in content) && !Object.keys(content).some((k) => k !== "application/json"))) {
      throw new Error(`response drift: ${where}: content type ${type} not declared (${Object.keys(content).join(", ")})`);
    }
    return;
  }
  const schema = content["application/json"]?.schema;
  if (!schema) throw new Error(`response drift: ${where}: JSON answered, the document declares ${Object.keys(content).join(", ")}`);
  const validate = validator(schema);
  if (!validate(res.body)) {
    throw new Error(`response drift: ${where}: ${JSON.stringify(validate.errors?.slice(0, 5))}; body ${res.text.slice(0, 300)}`);
  }
}
