// The deposit addresses the kit asked the service for on a user's behalf (../routes/depositAddress.ts):
// each is one user's, from the first quote that gave it, and a crypto deposit into it, as quoted, is
// that user's whoever sent it.
import { SCHEMA } from './migrations'
import type { PaymentStore, RecordedDepositAddress } from './paymentStore'
import type { Db } from './sql'

const ADDRESS = /^0x[0-9a-f]{40}$/
const UNITS = /^\d{1,78}$/

export function createDepositAddresses(db: Db): Pick<PaymentStore, 'recordDepositAddress' | 'depositAddressOf' | 'depositAddressesOf'> {
  return {
    async recordDepositAddress({ chainId, address, userId, token, units, fromBlock }) {
      if (!Number.isInteger(chainId) || !userId || !ADDRESS.test(address) || !ADDRESS.test(token) || !UNITS.test(units) || !UNITS.test(fromBlock)) {
        throw new TypeError(
          'recordDepositAddress: a chain id, lower-case 0x address and token, a userId, and units and fromBlock as integer strings are required',
        )
      }
      // Kept 30 days (a quote holds minutes; a deposit is told at once, and recorded for good then).
      // One given again after that is the new user's, and takes nothing mined before it was.
      await db.query(`DELETE FROM ${SCHEMA}.deposit_addresses WHERE created_at < now() - interval '30 days'`)
      // One statement: of two users given one address at once, exactly one holds it. The holder's
      // own new quote adds its token and amount to those quoted (each one shown to the buyer counts;
      // the latest 20 are kept) and keeps it 30 days from now; the block it was first given at stays.
      const table = `${SCHEMA}.deposit_addresses`
      const { rows } = await db.query<{ user_id: string }>(
        `INSERT INTO ${table} (chain_id, address, user_id, token, units, from_block, quoted) VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, ARRAY[$7::text])
         ON CONFLICT (chain_id, address) DO UPDATE SET token = EXCLUDED.token, units = EXCLUDED.units, created_at = now(),
           quoted = CASE WHEN $7::text = ANY(${table}.quoted) THEN ${table}.quoted ELSE (${table}.quoted || $7::text)[greatest(1, cardinality(${table}.quoted) - 18):] END
         WHERE ${table}.user_id = EXCLUDED.user_id
         RETURNING user_id`,
        [chainId, address, userId, token, units, fromBlock, `${token}:${BigInt(units)}`],
      )
      return rows[0]?.user_id === userId
    },

    async depositAddressOf(chainId, address) {
      return (await readAddresses(db, chainId, [address]))[0]
    },

    depositAddressesOf: (chainId, addresses) => readAddresses(db, chainId, addresses),
  }
}

/**
 * The recorded ones among `addresses`, in one statement (a transaction may pay thousands of them),
 * younger than 30 days: whether an older one is still deleted depends on the next ask, not its answer.
 */
async function readAddresses(db: Db, chainId: number, addresses: readonly string[]): Promise<RecordedDepositAddress[]> {
  const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))]
  if (wanted.length === 0) return []
  const { rows } = await db.query<{ address: string; user_id: string; token: string; units: string; from_block: string; quoted: string[] }>(
    `SELECT address, user_id, token, units::text AS units, from_block::text AS from_block, quoted FROM ${SCHEMA}.deposit_addresses
     WHERE chain_id = $1 AND address = ANY($2::text[]) AND created_at >= now() - interval '30 days'`,
    [chainId, wanted],
  )
  return rows.map((row) => ({
    chainId,
    address: row.address,
    userId: row.user_id,
    token: row.token,
    units: row.units,
    fromBlock: row.from_block,
    quoted: row.quoted.map((pair) => {
      const [token, units] = pair.split(':')
      return { token, units }
    }),
  }))
}
