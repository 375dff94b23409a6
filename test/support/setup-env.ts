import { inject } from "vitest";
import { TEST_APP_SECRET } from "./server";

// Test files use the domain code directly only to create fixtures (organizations, keys);
// everything under test goes through HTTP.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.APP_SECRET = TEST_APP_SECRET;
process.env.LOG_LEVEL = "silent";
