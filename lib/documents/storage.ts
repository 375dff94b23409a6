import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";

// Where document bytes live. The default keeps them in the database (document_blobs), in
// the same transaction as the document row; an object-storage backend implements the same
// two calls (put before commit is fine there too: an orphaned object is harmless, a
// missing one is not possible because the row commits after the put).
export interface DocumentStorage {
  put(tx: Tx, input: { organizationId: string; key: string; content: Buffer }): Promise<void>;
  get(tx: Tx, input: { organizationId: string; key: string }): Promise<Buffer | null>;
}

export const databaseStorage: DocumentStorage = {
  async put(tx, { organizationId, key, content }) {
    // Not Prisma's model create: it spends about twice as long turning 10 MiB into its query
    // parameters (measured: 7-9.5 s vs 3.5 s on a loaded 2-core machine); pg sends the Buffer as is.
    await query(tx).insertInto("document_blobs").values({ storage_key: key, organization_id: organizationId, content }).execute();
  },
  async get(tx, { organizationId, key }) {
    const row = await query(tx)
      .selectFrom("document_blobs")
      .select("content")
      .where("storage_key", "=", key)
      .where("organization_id", "=", organizationId)
      .executeTakeFirst();
    return row ? row.content : null;
  },
};

export const documentStorage = (): DocumentStorage => databaseStorage;
