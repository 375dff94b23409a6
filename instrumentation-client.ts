// Runs in the browser before the dashboard's own code: zod without its eval probe (lib/schemas/zod-setup.ts).
import "@/lib/schemas/zod-setup";
