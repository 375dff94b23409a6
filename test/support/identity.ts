import { randomUUID } from "node:crypto";
import { Api, baseUrl, cookieFrom, type ApiResponse } from "./api";

// An invitation or reset link taken apart: the id in the path, the token in the fragment.
export function linkParts(url: string): { id: string; token: string; path: string } {
  const u = new URL(url);
  return { id: u.pathname.split("/").pop() ?? "", token: u.hash.slice(1), path: u.pathname };
}

// POST /invitations/{id}/accept without a credential (or with `cookie`); on 200 the returned
// client carries the new session.
export async function accept(url: string, body: { password?: string; token?: string }, o: { cookie?: string } = {}): Promise<{ r: ApiResponse; api: Api }> {
  const { id, token } = linkParts(url);
  const api = new Api(baseUrl());
  const r = await api.post(`/invitations/${id}/accept`, { token, ...body }, { idempotencyKey: `accept-${randomUUID()}`, cookie: o.cookie });
  if (r.status === 200) api.cookie = cookieFrom(r);
  return { r, api };
}

// An owner's invitation of `email`: the link.
export async function invite(owner: Api, email: string, role = "member"): Promise<{ memberId: string; url: string }> {
  const r = await owner.post("/members", { email, role });
  if (r.status !== 201) throw new Error(`invite failed: ${r.status} ${r.text}`);
  return { memberId: r.body.member.id, url: r.body.invitation.url };
}
