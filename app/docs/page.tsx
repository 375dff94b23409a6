import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { MarkdownLite } from "@/components/ui/markdown-lite";

export const metadata: Metadata = { title: "API reference" };

type Content = Record<string, { schema: unknown; example?: unknown }>;

type Op = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  deprecated?: boolean;
  security: Record<string, string[]>[];
  parameters: { name: string; in: string; required: boolean; description?: string; deprecated?: boolean; schema: unknown }[];
  requestBody?: { content: Content };
  responses: Record<string, { $ref?: string; description?: string; content?: Content }>;
};

const METHOD_STYLE: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-800",
  post: "bg-blue-100 text-blue-800",
  delete: "bg-rose-100 text-rose-800",
};

function Json({ value }: { value: unknown }) {
  return <pre className="mt-1 max-h-96 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{JSON.stringify(value, null, 2)}</pre>;
}

// A request's or response's content: per media type the schema and its example.
function Contents({ content }: { content: Content }) {
  return Object.entries(content).map(([mediaType, c]) => (
    <div key={mediaType}>
      <Json value={c.schema} />
      {c.example !== undefined && (
        <>
          <p className="mt-2 text-xs font-medium">Example</p>
          <Json value={c.example} />
        </>
      )}
    </div>
  ));
}

// A human-readable page of the served OpenAPI document; rendered on the server from the
// same object as /api/v1/openapi.json, with no third-party scripts.
export default function DocsPage() {
  const doc = buildOpenApiDocument();
  const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as Record<string, Op>).map(([method, op]) => ({ path, method, op })));
  const tags = doc.tags.map((t) => t.name);
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <header className="border-b border-slate-200 pb-6">
        <p className="text-sm font-medium text-brand-700">API reference · version {doc.info.version}</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight">{doc.info.title}</h1>
        <p className="mt-2 text-sm text-slate-600">
          Base path <code>/api/v1</code> · machine-readable document:{" "}
          <a className="text-brand-700 underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>
        </p>
        <nav aria-label="Sections" className="mt-4 flex flex-wrap gap-2 text-sm">
          {tags.map((t) => (
            <a key={t} href={`#tag-${t.replace(/\s+/g, "-")}`} className="rounded-full border border-slate-300 px-3 py-1 hover:bg-white">
              {t}
            </a>
          ))}
          <a href="#schemas" className="rounded-full border border-slate-300 px-3 py-1 hover:bg-white">
            Schemas
          </a>
        </nav>
      </header>
      <section className="mt-6">
        <MarkdownLite source={doc.info.description} />
      </section>
      {doc.tags.map((tag) => (
        <section key={tag.name} id={`tag-${tag.name.replace(/\s+/g, "-")}`} className="mt-12">
          <h2 className="text-2xl font-semibold">{tag.name}</h2>
          <p className="text-slate-600">{tag.description}</p>
          {ops
            .filter(({ op }) => op.tags.includes(tag.name))
            .map(({ path, method, op }) => (
              <article key={`${method} ${path}`} id={op.operationId} className="mt-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
                <h3 className="flex flex-wrap items-center gap-3 font-mono text-sm">
                  <span className={`rounded px-2 py-0.5 font-semibold uppercase ${METHOD_STYLE[method] ?? ""}`}>{method}</span>
                  <span>/api/v1{path}</span>
                  {op.deprecated && <span className="rounded bg-amber-100 px-2 py-0.5 text-amber-800">deprecated</span>}
                </h3>
                <p className="mt-2 font-medium">{op.summary}</p>
                {op.description && <p className="mt-1 text-sm text-slate-600">{op.description}</p>}
                <p className="mt-2 text-xs text-slate-500">
                  Auth:{" "}
                  {op.security.length === 0
                    ? "none"
                    : op.security
                        .map((s) =>
                          Object.entries(s)
                            .map(([k, v]) => (v.length ? `${k} (${v.join(", ")})` : k))
                            .join(" + "),
                        )
                        .join(" or ")}
                </p>
                {op.parameters.length > 0 && (
                  <table className="mt-3 w-full text-left text-sm">
                    <caption className="sr-only">Parameters</caption>
                    <thead className="text-xs uppercase text-slate-500">
                      <tr>
                        <th className="py-1">Parameter</th>
                        <th>In</th>
                        <th>Required</th>
                        <th>Description</th>
                      </tr>
                    </thead>
                    <tbody>
                      {op.parameters.map((p) => (
                        <tr key={`${p.in}-${p.name}`} className="border-t border-slate-100 align-top">
                          <td className="py-1 font-mono">
                            {p.name}
                            {p.deprecated ? " (deprecated)" : ""}
                          </td>
                          <td>{p.in}</td>
                          <td>{p.required ? "yes" : "no"}</td>
                          <td className="text-slate-600">
                            {p.description ?? ""} <code className="text-xs">{JSON.stringify(p.schema)}</code>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
                {op.requestBody && (
                  <details className="mt-3">
                    <summary className="cursor-pointer text-sm font-medium">Request body ({Object.keys(op.requestBody.content).join(", ")})</summary>
                    <Contents content={op.requestBody.content} />
                  </details>
                )}
                <details className="mt-3">
                  <summary className="cursor-pointer text-sm font-medium">Responses: {Object.keys(op.responses).join(", ")}</summary>
                  {Object.entries(op.responses).map(([status, r]) => (
                    <div key={status} className="mt-2 text-sm">
                      <p>
                        <span className="font-mono font-semibold">{status}</span>{" "}
                        {r.$ref
                          ? (doc.components.responses as Record<string, { description: string }>)[r.$ref.split("/").pop() ?? ""]?.description
                          : r.description}
                      </p>
                      {r.content && <Contents content={r.content} />}
                    </div>
                  ))}
                </details>
              </article>
            ))}
        </section>
      ))}
      <section id="schemas" className="mt-12">
        <h2 className="text-2xl font-semibold">Schemas</h2>
        <p className="text-slate-600">
          Shared objects, referenced above as <code>#/components/schemas/&lt;name&gt;</code>.
        </p>
        {Object.entries(doc.components.schemas).map(([name, schema]) => (
          <details key={name} id={`schema-${name}`} className="mt-3 rounded-lg border border-slate-200 bg-white p-4">
            <summary className="cursor-pointer font-mono text-sm font-medium">{name}</summary>
            <Json value={schema} />
          </details>
        ))}
      </section>
    </main>
  );
}
