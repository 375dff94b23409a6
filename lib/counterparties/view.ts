import type { CounterpartyGroup } from "@/lib/counterparties/group-counterparties";
import type { TCounterparty } from "@/lib/schemas/counterparties";

// The wire shape of a counterparty (list item); the detail adds `obligations`.
export const counterpartyView = (g: CounterpartyGroup): TCounterparty => ({
  id: g.id,
  name: g.name,
  email: g.email,
  open_count: g.open_count,
  outstanding: g.outstanding,
  overdue: g.overdue,
});
