import { describe, expect, it } from "vitest";
import { Api, baseUrl } from "./support/api";

// The document is built once per process and served with a strong ETag (304 on a match).
describe("OpenAPI document caching", () => {
  it("carries a strong ETag that stays the same across requests", async () => {
    const api = new Api(baseUrl());
    const a = await api.get("/openapi.json");
    const b = await api.get("/openapi.json");
    expect(a.status).toBe(200);
    const etag = a.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/); // strong: no W/ prefix
    expect(b.headers.get("etag")).toBe(etag);
    expect(b.text).toBe(a.text);
  });

  it("answers 304 without a body when If-None-Match names the current tag", async () => {
    const api = new Api(baseUrl());
    const etag = (await api.get("/openapi.json")).headers.get("etag")!;
    for (const inm of [etag, `"other", ${etag}`, `W/${etag}`, "*"]) {
      const res = await api.get("/openapi.json", { headers: { "if-none-match": inm } });
      expect(res.status, inm).toBe(304);
      expect(res.text, inm).toBe("");
      expect(res.headers.get("etag"), inm).toBe(etag);
    }
  });

  it("sends the full document when If-None-Match names another tag", async () => {
    const res = await new Api(baseUrl()).get("/openapi.json", { headers: { "if-none-match": '"not-the-tag"' } });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
  });
});
