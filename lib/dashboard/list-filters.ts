import { ZObligationListQuery, type TObligationListQuery } from "@/lib/schemas/obligations";

// The obligations list's filters as they travel in the page's URL: the query parameters of
// GET /obligations (a GET form submits them, empty fields included). A field that repeats
// (several checked boxes) is joined with commas, as the API takes it.
export const FILTER_KEYS = ["search", "status", "role", "type", "currency", "overdue", "context_id", "sort", "direction"] as const;

type SearchParams = Record<string, string | string[] | undefined>;
export type ListFilters = {
  query: TObligationListQuery; // what the list is read with (invalid fields dropped)
  values: Record<(typeof FILTER_KEYS)[number], string>; // what the form shows
  params: Record<string, string>; // the non-empty filters, for links (pagination, export)
  errors: { field: string; message: string }[];
  active: boolean; // some filter or search narrows the list
};

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.filter(Boolean).join(",") : (v ?? ""));

export function parseListFilters(sp: SearchParams): ListFilters {
  const values = Object.fromEntries(FILTER_KEYS.map((k) => [k, one(sp[k]).trim()])) as ListFilters["values"];
  // an empty field means no filter: left out, as the API's defaults apply to absent ones
  const raw: Record<string, string> = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
  raw.limit = one(sp.limit) || "50";
  raw.offset = one(sp.offset) || "0";
  const errors: ListFilters["errors"] = [];
  let parsed = ZObligationListQuery.safeParse(raw);
  // Drop each invalid field and say so, rather than refusing the whole page.
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      errors.push({ field, message: issue.message });
      if (field === "limit" || field === "offset") raw[field] = field === "limit" ? "50" : "0";
      else {
        delete raw[field];
        if (field in values) values[field as keyof typeof values] = "";
      }
    }
    parsed = ZObligationListQuery.safeParse(raw);
  }
  const query = parsed.success ? parsed.data : ZObligationListQuery.parse({});
  const params = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
  const active = Object.keys(params).some((k) => k !== "sort" && k !== "direction");
  return { query, values, params, errors, active };
}
