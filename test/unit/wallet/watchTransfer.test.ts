import { describe, expect, it } from 'vitest'
import { TRANSFER_TOPIC, transfersInto } from '../../../src/wallet/watchTransfer'

const DEPOSIT = '0x1111111111111111111111111111111111111111'
const TOKEN = '0x2222222222222222222222222222222222222222'
const word = (hex: string) => `0x${hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`
const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'

const log = (over: Record<string, unknown> = {}) => ({
  address: TOKEN,
  topics: [TRANSFER_TOPIC, word('0x3333333333333333333333333333333333333333'), word(DEPOSIT)],
  data: word(10_000_000n.toString(16)),
  transactionHash: `0x${'ab'.repeat(32)}`,
  blockNumber: '0x10',
  ...over,
})
const rpc = (logs: unknown[]) => ({ request: async () => logs }) as never

describe('the transfers into a deposit address, as an RPC answers them', () => {
  it('reads a Transfer into the address', async () => {
    expect(await transfersInto(rpc([log()]), DEPOSIT, '16')).toEqual([{ txHash: `0x${'ab'.repeat(32)}`, token: TOKEN, units: '10000000', blockNumber: '0x10' }])
  })

  it('takes no log an honest node would not have answered: another event, a malformed hash or token, an earlier block, an amount that is not one word', async () => {
    const hostile = [
      // Approval(owner, spender = the deposit address, value): three topics too, the address third.
      log({ topics: [APPROVAL_TOPIC, word('0x3333333333333333333333333333333333333333'), word(DEPOSIT)] }),
      log({ transactionHash: '0xab", "to": "elsewhere' }),
      log({ address: 'not-a-token' }),
      log({ blockNumber: '0x0f' }),
      log({ data: `${word('0x989680')}${'00'.repeat(32)}` }),
    ]
    expect(await transfersInto(rpc(hostile), DEPOSIT, '16')).toEqual([])
  })
})
