import { beforeAll, describe, expect, it } from "vitest";
import type { Api } from "./support/api";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, registerObligation } from "./support/obligations";
import { allocate, recordPayment } from "./support/payments";

// GET /obligations filters, search and sort, over HTTP against the real server.
type Item = { id: string; [k: string]: any };

const createContext = async (api: Api, name: string) => {
  const r = await api.post("/business-contexts", { type: "project", name, reference: `P-${name}` });
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
};

async function list(api: Api, query: string): Promise<Item[]> {
  const r = await api.get(`/obligations?limit=100${query ? `&${query}` : ""}`);
  expect(r.status, `${query}: ${r.text}`).toBe(200);
  return r.body.items;
}
const ids = (items: Item[]) => items.map((i) => i.id);
const sameSet = (a: string[], b: string[]) => expect([...a].sort()).toEqual([...b].sort());

let org: OrgFixture;
let other: OrgFixture;
// A: overdue EUR invoice; B: USD contractual (context X); C: EUR payment condition where the
// organization is the debtor; D: sent (PAYMENT_REQUESTED), same amount and deadline as C;
// E: fully paid (RECONCILED) past its deadline; F: partly paid, in context X.
const ob: Record<"A" | "B" | "C" | "D" | "E" | "F", Item> = {} as never;
let contextX = "";
let otherContext = "";
let otherId = "";

beforeAll(async () => {
  org = await newOrg("Filters Org");
  other = await newOrg("Filters Other Org");
  contextX = await createContext(org.api, "Harbour");
  otherContext = await createContext(other.api, "Harbour");
  const reg = async (overrides: Record<string, unknown>) => (await registerObligation(org.api, legacyBody(overrides))).obligation as Item;
  ob.A = await reg({
    amount_minor: "1000",
    deadline: dayOffset(-10),
    debtor: { name: "Alpha Handels GmbH", email: "billing@alpha-handels.example" },
    external_reference: { namespace: "erp", id: "EXT-ALPHA-0001" },
    business_context: { invoice_number: "INV-ALPHA-77" },
  });
  ob.B = await reg({
    obligation_type: "contractual",
    amount_minor: "5000",
    currency: "USD",
    deadline: dayOffset(20),
    debtor: { name: "Beta Shipping", email: "ap@beta-shipping.example" },
    context_ids: [contextX],
  });
  ob.C = await reg({
    obligation_type: "payment_condition",
    organization_role: "debtor",
    creditor: { name: "Gamma Supplies", email: "sales@gamma-supplies.example" },
    debtor: undefined,
    amount_minor: "3000",
    deadline: dayOffset(5),
  });
  ob.D = await reg({ amount_minor: "3000", deadline: dayOffset(5), debtor: { name: "Delta Foods" } });
  const sent = await org.api.post(`/obligations/${ob.D.id}/actions`, { action: "mark_sent", expected_version: 1 });
  expect(sent.status, sent.text).toBe(200);
  ob.E = await reg({ amount_minor: "2000", deadline: dayOffset(-3), debtor: { name: "Epsilon Retail" } });
  ob.F = await reg({ amount_minor: "4000", deadline: dayOffset(40), debtor: { name: "Phi Logistics" }, context_ids: [contextX] });
  const pay = await recordPayment(org.api, { amount_minor: "3500", currency: "EUR" });
  expect((await allocate(org.api, pay.id, { obligation_id: ob.E.id, amount_minor: "2000", expected_version: 1 })).status).toBe(200);
  expect((await allocate(org.api, pay.id, { obligation_id: ob.F.id, amount_minor: "1500", expected_version: 1 })).status).toBe(200);
  // Read back the current projections (status, version, updated_at after the changes).
  for (const k of Object.keys(ob) as (keyof typeof ob)[]) ob[k] = (await org.api.get(`/obligations/${ob[k].id}`)).body;
  // Another organization's look-alike: same debtor, invoice number and external id.
  otherId = (
    await registerObligation(
      other.api,
      legacyBody({
        amount_minor: "1000",
        deadline: dayOffset(-10),
        debtor: { name: "Alpha Handels GmbH", email: "billing@alpha-handels.example" },
        external_reference: { namespace: "erp", id: "EXT-ALPHA-0001" },
        business_context: { invoice_number: "INV-ALPHA-77" },
        context_ids: [otherContext],
      }),
    )
  ).obligation.id;
});

describe("GET /obligations filters", () => {
  it("without parameters: every obligation of the organization, newest first, as before", async () => {
    const items = await list(org.api, "");
    expect(ids(items)).toEqual([ob.F, ob.E, ob.D, ob.C, ob.B, ob.A].map((o) => o.id));
    expect(items.find((i) => i.id === ob.F.id)).toMatchObject({ status: "PARTIALLY_RECONCILED", allocated_minor: "1500" });
  });

  it("status: one value or a comma-separated list", async () => {
    expect(ids(await list(org.api, "status=RECONCILED"))).toEqual([ob.E.id]);
    sameSet(ids(await list(org.api, "status=PAYMENT_REQUESTED,PARTIALLY_RECONCILED")), [ob.D.id, ob.F.id]);
    sameSet(ids(await list(org.api, "status=OBLIGATION_CAPTURED")), [ob.A.id, ob.B.id, ob.C.id]);
  });

  it("role, type and currency", async () => {
    expect(ids(await list(org.api, "role=debtor"))).toEqual([ob.C.id]);
    sameSet(
      ids(await list(org.api, "role=creditor")),
      [ob.A, ob.B, ob.D, ob.E, ob.F].map((o) => o.id),
    );
    expect(ids(await list(org.api, "type=contractual"))).toEqual([ob.B.id]);
    sameSet(ids(await list(org.api, "type=contractual,payment_condition")), [ob.B.id, ob.C.id]);
    expect(ids(await list(org.api, "currency=USD"))).toEqual([ob.B.id]);
    expect(await list(org.api, "currency=JPY")).toEqual([]);
  });

  it("overdue: deadline passed and not RECONCILED (a paid obligation past its deadline is not overdue)", async () => {
    expect(ids(await list(org.api, "overdue=true"))).toEqual([ob.A.id]);
    sameSet(
      ids(await list(org.api, "overdue=false")),
      [ob.B, ob.C, ob.D, ob.E, ob.F].map((o) => o.id),
    );
  });

  it("context_id: obligations linked to the context; another organization's context matches nothing", async () => {
    sameSet(ids(await list(org.api, `context_id=${contextX}`)), [ob.B.id, ob.F.id]);
    expect(await list(org.api, `context_id=${otherContext}`)).toEqual([]);
    expect(ids(await list(other.api, `context_id=${otherContext}`))).toEqual([otherId]);
  });

  it("filters combine with AND; empty values mean no filter", async () => {
    expect(
      ids(await list(org.api, "currency=EUR&role=creditor&overdue=false&status=PAYMENT_REQUESTED,PARTIALLY_RECONCILED,RECONCILED&sort=amount&direction=asc")),
    ).toEqual([ob.E.id, ob.D.id, ob.F.id]);
    expect(ids(await list(org.api, `context_id=${contextX}&currency=USD`))).toEqual([ob.B.id]);
    expect(await list(org.api, "type=invoice&role=debtor")).toEqual([]);
    expect(ids(await list(org.api, "status=&role=&type=&currency=&overdue=&context_id=&search="))).toEqual(ids(await list(org.api, "")));
  });
});

describe("GET /obligations search", () => {
  const only = async (term: string, expected: string[]) => sameSet(ids(await list(org.api, `search=${encodeURIComponent(term)}`)), expected);

  it("finds by reference, invoice number, party name and email, external id (case-insensitive substrings)", async () => {
    await only(ob.A.reference, [ob.A.id]);
    await only(ob.A.reference.slice(4).toLowerCase(), [ob.A.id]);
    await only("inv-alpha-7", [ob.A.id]);
    await only("handels gmbh", [ob.A.id]);
    await only("BILLING@ALPHA", [ob.A.id]);
    await only("gamma supp", [ob.C.id]); // creditor name (the organization is the debtor)
    await only("sales@gamma-supplies.example", [ob.C.id]); // creditor email
    await only("ap@beta-shipping", [ob.B.id]);
    await only("ext-alpha-0001", [ob.A.id]);
    await only("no such obligation anywhere", []);
  });

  it("finds by payment reference, whole, in part, and written in groups of four", async () => {
    const rf: string = ob.D.payment_reference;
    expect(rf).toMatch(/^RF\d{2}/);
    await only(rf, [ob.D.id]);
    await only(rf.toLowerCase(), [ob.D.id]);
    await only(rf.replace(/(.{4})/g, "$1 ").trim(), [ob.D.id]);
    await only(rf.slice(4), [ob.D.id]);
  });

  it("treats % _ and \\ in the term literally", async () => {
    await only("%", []);
    await only("_", []);
    await only("\\", []);
  });

  it("never finds another organization's obligations", async () => {
    const mine = await list(org.api, "search=alpha");
    expect(ids(mine)).toEqual([ob.A.id]);
    expect(ids(await list(other.api, "search=alpha"))).toEqual([otherId]);
    expect(ids(await list(other.api, `search=${ob.A.reference}`))).toEqual([]);
  });
});

describe("GET /obligations sort and paging", () => {
  const all = () => Object.values(ob);
  const keyOf: Record<string, (o: Item) => string | bigint> = {
    created_at: (o) => o.created_at,
    updated_at: (o) => o.updated_at,
    deadline: (o) => o.deadline,
    amount: (o) => BigInt(o.amount_minor),
    outstanding: (o) => BigInt(o.amount_minor) - BigInt(o.allocated_minor),
  };
  const expected = (sort: string, dir: "asc" | "desc") =>
    [...all()]
      .sort((a, b) => {
        const ka = keyOf[sort](a);
        const kb = keyOf[sort](b);
        const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
        return dir === "asc" ? c : -c;
      })
      .map((o) => o.id);

  for (const sort of Object.keys(keyOf)) {
    for (const dir of ["asc", "desc"] as const) {
      it(`sort=${sort}&direction=${dir}: ordered by the key, ties by id in the same direction`, async () => {
        expect(ids(await list(org.api, `sort=${sort}&direction=${dir}`))).toEqual(expected(sort, dir));
      });
    }
  }

  it("default directions: deadline ascending, the others descending", async () => {
    expect(ids(await list(org.api, "sort=deadline"))).toEqual(expected("deadline", "asc"));
    expect(ids(await list(org.api, "sort=amount"))).toEqual(expected("amount", "desc"));
    // C and D tie on amount and deadline: the tie is decided by id
    const byDeadline = expected("deadline", "asc");
    expect(Math.abs(byDeadline.indexOf(ob.C.id) - byDeadline.indexOf(ob.D.id))).toBe(1);
  });

  it("pages of any size concatenate to the full list, without repeats or gaps", async () => {
    for (const q of ["sort=amount&direction=asc", "sort=deadline", "sort=outstanding", "status=OBLIGATION_CAPTURED,RECONCILED&sort=updated_at", ""]) {
      const full = ids(await list(org.api, q));
      for (const size of [1, 2, 4]) {
        const paged: string[] = [];
        for (let offset = 0; offset < full.length + size; offset += size) {
          const r = await org.api.get(`/obligations?limit=${size}&offset=${offset}${q ? `&${q}` : ""}`);
          expect(r.status).toBe(200);
          expect(r.body).toMatchObject({ limit: size, offset });
          paged.push(...ids(r.body.items));
        }
        expect(paged, `${q} by ${size}`).toEqual(full);
      }
    }
  });
});

describe("GET /obligations invalid parameters", () => {
  it.each([
    ["status=OPEN", "query.status"],
    ["status=RECONCILED,nope", "query.status"],
    ["role=payer", "query.role"],
    ["type=loan", "query.type"],
    ["currency=XYZ", "query.currency"],
    ["overdue=yes", "query.overdue"],
    ["context_id=not-a-uuid", "query.context_id"],
    [`search=${"x".repeat(201)}`, "query.search"],
    ["sort=reference", "query.sort"],
    ["direction=up", "query.direction"],
    ["limit=0", "query.limit"],
    ["colour=red", "query.colour"],
  ])("%s is 422 validation_failed naming %s", async (q, name) => {
    const r = await org.api.get(`/obligations?${q}`);
    expect(r.status, r.text).toBe(422);
    expect(r.body.error.code).toBe("validation_failed");
    expect(r.body.error.message).toContain(name);
  });

  it("the parameters are documented in the OpenAPI document", async () => {
    const doc = (await org.api.get("/openapi.json")).body;
    const params = doc.paths["/obligations"].get.parameters as { name: string; in: string; description?: string; required: boolean }[];
    for (const name of ["status", "role", "type", "currency", "overdue", "context_id", "search", "sort", "direction"]) {
      const p = params.find((x) => x.name === name && x.in === "query");
      expect(p, name).toBeDefined();
      expect(p!.required, name).toBe(false);
      expect(p!.description, name).toBeTruthy();
    }
  });
});
