// Shortcuts between the direct API path (lib/http/api-server.ts) and the request pipeline
// (lib/http/handle.ts) that skip a web stream on each side of a request: a body the server
// read whole before the handler ran travels on the Request, and a JSON text the pipeline
// answers travels on the Response, each beside the stream that carries the same bytes (for
// any reader that is not in on it, e.g. Next.js's own path, where these are never set).
const RAW_BODY = Symbol.for("fos.rawBody");
const RAW_TEXT = Symbol.for("fos.rawText");

type WithBody = Request & { [RAW_BODY]?: Buffer };
type WithText = Response & { [RAW_TEXT]?: string };

export function withRawBody(req: Request, bytes: Buffer): Request {
  (req as WithBody)[RAW_BODY] = bytes;
  return req;
}
export const rawBodyOf = (req: Request): Buffer | undefined => (req as WithBody)[RAW_BODY];

export function withRawText(res: Response, text: string): Response {
  (res as WithText)[RAW_TEXT] = text;
  return res;
}
export const rawTextOf = (res: Response): string | undefined => (res as WithText)[RAW_TEXT];
