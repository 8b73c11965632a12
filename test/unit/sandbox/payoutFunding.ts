// What holds alike for the sandbox's bank and card payouts, funded by a real ERC-20 transfer on
// anvil: the watcher sees the transfer, a second transfer to the spent address is an orphan, and
// a rejection sends back what arrived.
import { type Address, type Hex, parseUnits } from 'viem'
import { expect } from 'vitest'
import { type BankStack, until } from './bankStack'

type Kind = 'bank' | 'card'
type Created = { id: string; depositAddress: Address; depositAmount: string }
type Status = (id: string) => Promise<any>

/** Sends `created` its depositAmount (or `amount` of its units) from `wallet`; the status once past pending. */
export async function fund(s: BankStack, wallet: Address, created: Created, status: Status, amount?: (depositUnits: bigint) => bigint) {
  const units = parseUnits(created.depositAmount, 6)
  const hash: Hex = await s.transfer(wallet, created.depositAddress, amount ? amount(units) : units)
  const seen = await until(
    () => status(created.id),
    (p) => p.status !== 'pending',
  )
  return { created, hash, seen }
}

/** The status of payout `id` once the sandbox's short timer has settled it. */
export const settled = (status: Status, id: string) =>
  until(
    () => status(id),
    (p) => p.status === 'settled',
  )

/** A second transfer to a funded payout's address leaves money without an order: an orphan, the payout as it was. */
export async function expectOrphanedSecondTransfer(s: BankStack, kind: Kind, wallet: Address, funded: { created: Created; hash: Hex }, status: Status) {
  const { created, hash } = funded
  const again = await s.transfer(wallet, created.depositAddress, 1_000_000n)
  const state = await until(
    async () => (await fetch(`${s.base}/__sandbox/${kind}/payouts`)).json(),
    (st: { orphans: Array<{ txHash: string }> }) => st.orphans.some((o) => o.txHash === again),
  )
  expect(state.orphans.find((o: { txHash: string }) => o.txHash === again)).toMatchObject({ payout: created.id, value: '1' })
  expect(await status(created.id)).toMatchObject({ status: 'converting', depositTxHash: hash })
}

/** Rejected before it left, with `reason`: what arrived goes back in full to `wallet`, on chain. */
export async function expectRejectedRefund(s: BankStack, kind: Kind, wallet: Address, created: Created, status: Status, reason: string) {
  const before = await s.balance(s.srcPublic, s.config.payout.token, wallet)
  const answer = (await s.control(`/${kind}/payout/reject`, { id: created.id, reason })).body
  expect(await status(created.id)).toMatchObject({ status: 'rejected', reason })
  expect((await s.balance(s.srcPublic, s.config.payout.token, wallet)) - before).toBe(parseUnits(created.depositAmount, 6))
  expect(answer.refundTxHash).toMatch(/^0x/)
}

/** A hostile answer `name` set by the control `control` (hostilePayout, hostileCardPayout): the next quote for `ask` has `field` = `hostile`, the one after it `honest` again. */
export async function expectHostileQuoteOnce(
  s: BankStack,
  control: string,
  name: string,
  quote: (ask: Record<string, unknown>) => Promise<{ body: Record<string, unknown> }>,
  ask: Record<string, unknown>,
  field: string,
  [hostile, honest]: [string, string],
) {
  await s.control('/control', { [control]: name })
  expect((await quote(ask)).body[field]).toBe(hostile)
  expect((await quote(ask)).body[field]).toBe(honest)
}

/** A hostile create.amount answer once: the payout `create` makes says 1000, its repeat the quoted 100, the same payout. */
export async function expectHostileCreateOnce(create: () => Promise<{ body: { id: string; depositAmount: string } }>) {
  const created = (await create()).body
  expect(created.depositAmount).toBe('1000')
  expect((await create()).body).toMatchObject({ id: created.id, depositAmount: '100' })
}
