import { handle } from "@/lib/http/handle";
import { createBasketOp } from "@/lib/operations/recipient-accounts";
import { createBasket } from "@/lib/account-links/create-basket";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/accounts/{account}/baskets – one transfer for several obligations, with its own reference
export const POST = handle(createBasketOp, async ({ tx, principal, body }) => ({
  status: 201,
  body: await createBasket(tx, { principal, items: body.items }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
