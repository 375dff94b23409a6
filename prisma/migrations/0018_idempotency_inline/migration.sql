-- Stored idempotent responses stay in their rows (lib/idempotency/index.ts, storeInTx).
-- A response is sealed (AES-256-GCM, lib/crypto.ts) and so cannot be compressed: a
-- registration's is ~5.2 kB of base64url. Past PostgreSQL's default toast_tuple_target
-- (~2 kB) every such row moved its body to the TOAST table (a second heap row and an index
-- entry) after a compression attempt that could not succeed. Rows up to a page now stay
-- whole, and a larger body goes out of line without that attempt. Earlier versions deflated
-- each body before sealing it to stay under ~2 kB instead (docs/benchmarks.md, step 18).
ALTER TABLE idempotency_records SET (toast_tuple_target = 8160);
ALTER TABLE idempotency_records ALTER COLUMN response_body SET STORAGE EXTERNAL;
