// The chain reader of a deposit being followed: once the widget is unmounted (its signal aborted),
// nothing more goes to the chain through it, whoever asks (viem's polling, the transport's retries).
import { describe, expect, it } from 'vitest'
import { readClient } from '../../../src/wallet/chainActions'

const chain = { id: 31337, name: 'Test chain', nativeSymbol: 'ETH', rpcUrl: undefined } as never

function wallet() {
  const asked: string[] = []
  return { asked, request: async ({ method }: { method: string }) => (asked.push(method), '0x1') }
}

describe('readClient with a signal', () => {
  it('reads while the signal is live', async () => {
    const provider = wallet()
    const client = readClient(chain, provider, new AbortController().signal)
    await expect(client.request({ method: 'eth_blockNumber' })).resolves.toBe('0x1')
    expect(provider.asked).toEqual(['eth_blockNumber'])
  })

  it('asks the chain nothing once the signal is aborted, and says why', async () => {
    const provider = wallet()
    const stop = new AbortController()
    const client = readClient(chain, provider, stop.signal)
    await client.request({ method: 'eth_blockNumber' })
    stop.abort()
    await expect(client.request({ method: 'eth_getTransactionReceipt', params: ['0x01'] })).rejects.toThrow('the widget stopped reading the chain')
    expect(provider.asked).toEqual(['eth_blockNumber'])
  })
})
