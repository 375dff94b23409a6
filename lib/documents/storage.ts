import type { Tx } from "@/lib/db";

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
    // A raw insert: the model create spends about twice as long turning 10 MiB into its
    // query parameters (measured: 7-9.5 s vs 3.5 s on a loaded 2-core machine).
    await tx.$executeRaw`INSERT INTO document_blobs (storage_key, organization_id, content) VALUES (${key}, ${organizationId}::uuid, ${content})`;
  },
  async get(tx, { organizationId, key }) {
    const row = await tx.documentBlob.findFirst({ where: { storageKey: key, organizationId } });
    return row ? Buffer.from(row.content) : null;
  },
};

export const documentStorage = (): DocumentStorage => databaseStorage;
