// The one door to the database: a query and a transaction, over either engine. Both speak the
// same Postgres SQL; only how a transaction holds its connection differs.

export type Row = Record<string, unknown>

export interface Sql {
  query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<{ rows: R[] }>
}

export interface Db extends Sql {
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/**
 * What the kit uses of a `pg` Pool (node-postgres), so that the kit itself never imports `pg`:
 * the partner who runs several instances brings its own Pool and its own version.
 */
export interface PgPool {
  query(text: string, params?: unknown[]): Promise<{ rows: Row[] }>
  connect(): Promise<{ query(text: string, params?: unknown[]): Promise<{ rows: Row[] }>; release(error?: Error | boolean): void }>
  end(): Promise<void>
}

export function poolDb(pool: PgPool, { endOnClose = false }: { endOnClose?: boolean } = {}): Db {
  const run = <R extends Row>(on: Pick<PgPool, 'query'>, text: string, params?: readonly unknown[]) =>
    on.query(text, params ? [...params] : undefined) as Promise<{ rows: R[] }>
  return {
    query: (text, params) => run(pool, text, params),
    async transaction(work) {
      const client = await pool.connect()
      let broken: Error | undefined
      try {
        await client.query('BEGIN')
        const result = await work({ query: (text, params) => run(client, text, params) })
        await client.query('COMMIT')
        return result
      } catch (error) {
        // A connection whose ROLLBACK fails is in an unknown state: the pool must drop it, not reuse it.
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback))
        throw error
      } finally {
        client.release(broken)
      }
    },
    // The partner's Pool is the partner's to end, unless the kit opened it.
    close: async () => (endOnClose ? pool.end() : undefined),
  }
}
