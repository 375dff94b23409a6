import { transaction, type Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/lib/auth/passwords";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES, type Role, type Scope } from "@/lib/auth/permissions";
import { AppError } from "@/lib/errors";

export async function createOrganization(input: {
  name: string;
  ownerEmail: string;
  ownerPassword: string;
  ownerName?: string;
}): Promise<{ organization_id: string; user_id: string; api_key: string; owner_account: "created" | "existing" }> {
  const passwordHash = await hashPassword(input.ownerPassword);
  return transaction(async (tx) => {
    const organizationId = newId();
    await tx.organization.create({ data: { id: organizationId, name: input.name } });
    const owner = await addUser(tx, { organizationId, email: input.ownerEmail, passwordHash, role: "owner", name: input.ownerName });
    const { apiKey } = await createApiKey(tx, { organizationId, scopes: SCOPES, name: "initial" });
    return { organization_id: organizationId, user_id: owner.userId, api_key: apiKey, owner_account: owner.created ? "created" : "existing" };
  });
}

export async function createUser(input: { organizationId: string; email: string; password: string; role: Role; name?: string }) {
  const passwordHash = await hashPassword(input.password);
  return transaction(async (tx) => {
    const org = await tx.organization.findUnique({ where: { id: input.organizationId } });
    if (!org) throw new AppError("not_found", "organization not found");
    const email = input.email.trim().toLowerCase();
    if (await tx.user.findUnique({ where: { email } })) {
      throw new AppError(
        "duplicate",
        `an account with the email ${email} exists already: invite it to the organization (POST /members), or set its password with reset-password`,
      );
    }
    return { user_id: (await addUser(tx, { ...input, passwordHash })).userId };
  });
}

export async function createOrganizationApiKey(input: { organizationId: string; scopes: readonly Scope[]; name?: string }) {
  return transaction(async (tx) => {
    const org = await tx.organization.findUnique({ where: { id: input.organizationId } });
    if (!org) throw new AppError("not_found", "organization not found");
    const { apiKey } = await createApiKey(tx, input);
    return { api_key: apiKey };
  });
}

// An existing account keeps its own password (only its person sets one): it is made a member.
async function addUser(
  tx: Tx,
  input: { organizationId: string; email: string; passwordHash: string; role: Role; name?: string },
): Promise<{ userId: string; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  let user = await tx.user.findUnique({ where: { email } });
  const created = !user;
  if (!user) {
    user = await tx.user.create({ data: { id: newId(), email, name: input.name ?? "", passwordHash: input.passwordHash } });
  }
  await tx.membership.create({ data: { id: newId(), organizationId: input.organizationId, userId: user.id, role: input.role } });
  return { userId: user.id, created };
}
