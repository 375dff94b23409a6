// Which endpoints receive an event: enabled, not deleted, and either no filter (an empty
// `event_types` is every type) or the event's type among its `event_types`. `w` is the
// endpoint table's alias, `type` an SQL expression of the event type.
export const RECEIVES_SQL = (w: string, type: string): string =>
  `${w}.enabled AND ${w}.deleted_at IS NULL AND (cardinality(${w}.event_types) = 0 OR ${type} = ANY(${w}.event_types))`;
