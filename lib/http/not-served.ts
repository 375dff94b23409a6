import { randomUUID } from "node:crypto";
import { errorBody } from "@/lib/errors";

type Served = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Answered = Served | "HEAD";

// The methods a route file does not serve, answered with the contract's 405 envelope and
// an Allow header (Next.js alone would answer an empty 405). Each route file exports the
// ones it lacks: `export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");`
// (HEAD only where there is no GET: Next.js derives HEAD from GET). Every route is checked
// by test/pipeline.test.ts.
export function notServed(...served: Served[]): Record<Answered, (req: Request) => Response> {
  const allow = served.join(", ");
  const answer = (req: Request) =>
    Response.json(errorBody("method_not_allowed", `${req.method} is not allowed here (${allow})`), {
      status: 405,
      headers: { allow, "x-request-id": randomUUID(), "cache-control": "no-store" },
    });
  return { GET: answer, HEAD: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer };
}
