// autocannon ships no types; the benchmark uses its documented programmatic API (scripts/bench/run.ts).
declare module "autocannon";
