// oidc-provider ships no type declarations; only the test provider (e2e/support/oidc.ts) uses it.
declare module "oidc-provider";
