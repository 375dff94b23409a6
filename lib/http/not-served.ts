import { randomUUID } from "node:crypto";
import { errorBody } from "@/lib/errors";

type Served = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Answered = Served | "HEAD";

// A route file's unserved methods, answered with the 405 envelope and Allow (Next.js alone
// answers an empty 405): `export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");`
// (HEAD only without GET). test/pipeline.test.ts checks every route.
export function notServed(...served: Served[]): Record<Answered, (req: Request) => Response> {
  const allow = served.join(", ");
  const answer = (req: Request) =>
    Response.json(errorBody("method_not_allowed", `${req.method} is not allowed here (${allow})`), {
      status: 405,
      headers: { allow, "x-request-id": randomUUID(), "cache-control": "no-store" },
    });
  return { GET: answer, HEAD: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer };
}
