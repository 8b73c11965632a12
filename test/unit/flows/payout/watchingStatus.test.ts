// Second review of issue 31: the funding step's watcher (watching.ts) reads the payout's status while
// no wallet is connected, and follows a transfer made another way (ALREADY_FUNDED: tracking, "this
// payout's address already received a transfer", no send offered any more). The status record
// names its payout (partner-api.md: "Bank payout status record": id, status, ...). An answer for
// another payout (a partner backend or a cache answering the wrong id) moves this unfunded payout to
// tracking all the same: the buyer reads that it was funded and is never offered the send.
import '../../setup/afterFirstScreen'
import { describe, expect, it, vi } from 'vitest'
import type { PayoutContext } from '../../../../src/flows/payout/context'
import type { FundingEvent } from '../../../../src/flows/payout/funding'
import { watchFunding } from '../../../../src/flows/payout/watching'
import { createFakeClock, settle } from '../../helpers/fakeClock'
import { HASH, NOW, buyer, config, recordOf } from '../../helpers/payout'

const record = recordOf({ settlement: undefined })

function watch(answer: { id: string; status: string; depositTxHash?: string }) {
  const clock = createFakeClock(NOW)
  const seen: FundingEvent[] = []
  const asked: string[] = []
  const ctx = {
    config,
    clock,
    pollIntervalMs: 1_000,
    funding: (e: FundingEvent) => seen.push(e),
    calls: {
      status: async (_ctx: unknown, id: string) => {
        asked.push(id)
        return { fiatCurrency: 'EUR', updatedAt: new Date(NOW).toISOString(), ...answer }
      },
    },
  } as unknown as PayoutContext
  const stop = watchFunding(ctx, { tag: 'funding', buyer, record, work: 'idle', connection: { tag: 'discovering' } })
  return { clock, seen, asked, stop }
}

describe('the funding watcher', () => {
  it('a status naming another payout does not move this one to tracking as funded', async () => {
    const w = watch({ id: 'bp_other', status: 'converting', depositTxHash: HASH })
    await w.clock.advance(1_000)
    await vi.waitFor(() => expect(w.asked).toEqual(['bp_1']), { timeout: 3_000 })
    await settle(10)
    w.stop()
    // Before: ALREADY_FUNDED, from bp_other's record.
    expect(w.seen.map((e) => e.type)).not.toContain('ALREADY_FUNDED')
  })

  it('held: this payout’s own status past pending is followed', async () => {
    const w = watch({ id: 'bp_1', status: 'converting', depositTxHash: HASH })
    await w.clock.advance(1_000)
    await vi.waitFor(() => expect(w.seen.map((e) => e.type)).toContain('ALREADY_FUNDED'), { timeout: 3_000 })
    w.stop()
  })

  it('held: stopped before its first look (the buyer connects), it asks nothing', async () => {
    const w = watch({ id: 'bp_1', status: 'converting', depositTxHash: HASH })
    w.stop()
    await w.clock.advance(5_000)
    await settle(10)
    expect(w.asked).toEqual([])
    expect(w.seen).toEqual([])
  })
})
