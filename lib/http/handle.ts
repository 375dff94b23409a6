import { randomUUID } from "node:crypto";
import { logger } from "@/lib/log";
import type { Operation } from "@/lib/http/operation";
import type { Handler, HandleOptions } from "@/lib/http/handler-context";
import { apiKeyOrder, ordinaryOrder, type Call } from "@/lib/http/pipeline";
import { apiKeyClaimable } from "@/lib/http/steps/api-key-claim";
import { assertNotCrossSite, checkRequestMarker } from "@/lib/http/steps/check-request";
import { routeParams } from "@/lib/http/steps/read-request";
import { errorResponse } from "@/lib/http/respond";
import { wordedError } from "@/lib/errors";

// The request pipeline every route handler goes through: handle(operation, fn). Handlers
// receive parsed, typed input (lib/http/handler-context.ts) and return a Reply; errors are
// AppError. The order of its steps: lib/http/pipeline.ts, docs/architecture.md "Layers".

export type { HandleOptions };

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function handle<O extends Operation>(op: O, fn: Handler<O>, options: HandleOptions = {}) {
  return async (req: Request, routeCtx: RouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = sanitizeRequestId(req.headers.get("x-request-id")) ?? randomUUID();
    const call: Call<O> = { op, fn, options, req, rawParams: {}, requestId, principal: { kind: "anonymous" } };
    let response: Response;
    try {
      call.rawParams = await routeParams(routeCtx);
      checkRequestMarker(op, req);
      assertNotCrossSite(op, req);
      const apiKey = apiKeyClaimable(op, req, options);
      response = (apiKey !== undefined ? await apiKeyOrder(call, apiKey) : undefined) ?? (await ordinaryOrder(call));
    } catch (err) {
      response = errorResponse(await wordedError(err), requestId, op);
    }
    const principal = call.principal;
    logger().info(
      {
        requestId,
        method: op.method,
        route: op.path,
        status: response.status,
        ms: Math.round(performance.now() - started),
        org: "organizationId" in principal ? principal.organizationId : undefined,
        principal: principal.kind,
      },
      "request",
    );
    return response;
  };
}

function sanitizeRequestId(v: string | null): string | undefined {
  return v && /^[A-Za-z0-9._-]{1,100}$/.test(v) ? v : undefined;
}
