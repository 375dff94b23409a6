import { describe, expect, it } from "vitest";
import { redirectTarget } from "@/lib/auth/redirect-target";

describe("redirectTarget (next-auth's redirect callback)", () => {
  const base = "https://host.example";
  it("keeps our own paths and URLs", () => {
    expect(redirectTarget("/dashboard", base)).toBe("https://host.example/dashboard");
    expect(redirectTarget("/login?sso=complete", base)).toBe("https://host.example/login?sso=complete");
    expect(redirectTarget("https://host.example/dashboard/obligations", base)).toBe("https://host.example/dashboard/obligations");
  });
  it("refuses other origins, string prefixes of ours included (issue 33)", () => {
    for (const url of [
      "https://host.example.evil.com/x",
      "https://host.evil.com",
      "https://host.example@evil.com/",
      "https://host.example:444/x",
      "http://host.example/x",
      "//evil.com/x",
      "/\\evil.com",
      "javascript:alert(1)",
      "https://evil.com/https://host.example",
    ]) {
      expect(redirectTarget(url, base), url).toBe("https://host.example/");
    }
  });
});
