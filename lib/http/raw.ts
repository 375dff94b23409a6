// A body read whole and a JSON text answered, carried on the Request and Response beside their
// streams, so the direct API path and the pipeline skip a web stream each (docs/architecture.md,
// "Why: the direct API path").
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
