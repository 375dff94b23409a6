// The prose part of the OpenAPI document: the conventions every endpoint shares.
export const OPENAPI_INTRO = `
System-neutral financial obligations, hosted payment requests, evidence and reconciliation.
The service never moves money: payments are recorded observations, allocated with evidence.

## Conventions
- JSON bodies; unknown properties are rejected (422 \`validation_failed\`, the message names each field path).
- Money: strings of integer minor units (\`^[1-9][0-9]*$\`, at most 9223372036854775807); computed amounts may be \`"0"\`.
- Dates \`YYYY-MM-DD\` (UTC); timestamps RFC 3339 UTC. Unset string fields of records are \`""\`, never null.
- IDs are UUIDs; a malformed or foreign id is 404 \`not_found\`.
- Lists: \`{items, limit, offset}\`, newest first, \`limit\` 1-100 (default 50), \`offset\` >= 0.

## Errors
\`{"error": {"code", "message"}}\` and nothing else. Codes: 400 \`malformed_request\`, \`idempotency_key_required\`;
401 \`unauthenticated\`; 403 \`insufficient_permission\`, \`insufficient_scope\`, \`request_marker_required\`; 404 \`not_found\`;
409 \`version_conflict\`, \`idempotency_request_in_progress\`, \`invalid_state\`, \`delivery_not_failed\`, \`duplicate\`;
410 \`payment_request_revoked\`, \`payment_request_expired\`, \`invitation_expired\`; 413 \`payload_too_large\` (uploads above 10 MiB, JSON above 1 MiB);
415 \`unsupported_media_type\`; 422 \`validation_failed\`, \`idempotency_key_reused\`, \`allocation_exceeds_remaining\`,
\`currency_mismatch\`, \`payment_terms_mismatch\`; 429 \`rate_limited\` (with Retry-After); 500 \`internal_error\`;
503 \`service_unavailable\` (with Retry-After) while the database is unreachable: nothing was changed, retry later with the
same Idempotency-Key. A request is never left hanging on the database: connecting to it gives up after 15 s.

## Input bounds
Every malformed request is a 4xx in the envelope above. A path whose percent-encoding is malformed (\`%\`, \`%zz\`, invalid
UTF-8 such as \`%C3%28\`) or whose segment decodes to \`.\`, \`..\` or a control character is 404 \`not_found\`. JSON bodies
nest at most 32 arrays/objects deep (deeper is 400 \`malformed_request\`, refused before the body is parsed). No string
(body, query, form field, file name, property name) may contain U+0000 or an unpaired UTF-16 surrogate, which the
database cannot store as text: 422 \`validation_failed\` naming the field path (e.g. \`body.email\`).

## Transactions
Every POST and DELETE runs in one database transaction: all of its effects, its events and (with an Idempotency-Key) its
stored response commit together or not at all. An acknowledged (2xx) write is committed.

## Idempotency
Every mutating call marked with \`Idempotency-Key\` (8-200 characters) is executed at most once per key and organization
(per hosted request for recipient calls). The first completed response (2xx, and 4xx other than 409/429) is stored with a
fingerprint of method, path and body and replayed byte-for-byte for at least 24 hours with \`Idempotent-Replayed: true\`.
The same key with a different method, path or body is 422 \`idempotency_key_reused\`; while the first request still runs,
others get 409 \`idempotency_request_in_progress\` (with Retry-After). A request that failed without an answer (the
server died, the database went away, 409, 429, 5xx) leaves the key free: a retry with it runs at once.

## Optimistic concurrency
Mutations of an existing obligation take \`expected_version\`; success increases \`version\` by exactly 1; a stale
version is 409 \`version_conflict\` and changes nothing.

## States
OBLIGATION_CAPTURED -> PAYMENT_REQUESTED (\`mark_sent\`, or the recipient opens the link) -> PAYMENT_CLAIMED
(\`report_payment\`) -> PARTIALLY_RECONCILED (0 < allocated < amount) -> RECONCILED (allocated = amount).
Allocation may move any earlier state straight to (PARTIALLY_)RECONCILED; nothing moves a RECONCILED obligation back.

## Events and webhooks
Event types: obligation.registered, obligation.payment_requested, obligation.link_opened, obligation.link_revoked,
obligation.link_reissued, obligation.acknowledged, obligation.dates_shared, obligation.payment_reported,
obligation.message_posted, obligation.document_added, obligation.condition_satisfied, obligation.condition_waived,
obligation.context_linked, obligation.expected_payment_date_set, obligation.disputed and obligation.dispute_resolved
(\`data.dispute\`), obligation.payment_promised (\`data.promise\`), payment.recorded, payment.allocated; the lifecycle's
obligation.amended (\`data.changes\`), obligation.credited and obligation.credit_reversed (\`data.credit\`),
payment.allocation_reversed (\`data.payment\`), payment.dismissed and payment.restored (\`data.payment\` only); and, from the
service's clock (each exactly once per obligation and term, threshold or link issue, whatever number of instances sweep):
obligation.term_payable and obligation.due (\`data.term\`), obligation.overdue at 1, 7 and 30 days (\`data.days_overdue\`),
payment_request.expiring 7 days before \`expires_at\` (\`data.payment_request\`), promise.kept and promise.broken
(\`data.promise\`).
Webhooks: POST JSON \`{id, type, created_at, organization_id, data}\` (\`data.obligation\` is the obligation projection,
payment events also carry \`data.payment\`), signed per Standard Webhooks: \`webhook-id\`, \`webhook-timestamp\`,
\`webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">\` keyed with the UTF-8 bytes of the secret.
A 2xx within 10 s is success. Delivery status \`pending\` -> \`succeeded\`, or \`failed\` after the last scheduled attempt
(default schedule, seconds after the event: 0, 5, 300, 1800, 7200, 18000, 36000, 36000). A 410 from the receiver
disables the endpoint. Every attempt of one event carries the same \`webhook-id\`.

## Authentication
Issuer endpoints: \`Authorization: Bearer <API_KEY>\` or the issuer session cookie from POST /session.
Recipient endpoints: the HttpOnly cookie from the session exchange (\`fos_recipient\`, or \`fos_recipient_{request}\` for the
request-scoped family); state-changing recipient calls need \`X-Service-Request: 1\`. Every recipient call re-checks the hosted
request: revoked or expired is 410, a session of a reissued link is 401.
`.trim();
