// @vitest-environment happy-dom
// WalletConnect as a wallet of the list (wallet/walletConnectWallet.tsx), over a fake client: what it
// answers before a session, a live session resumed without the pairing dialog, the dialog closed by
// the buyer (4001), and a request before connecting (4100).
import { beforeEach, describe, expect, it, vi } from 'vitest'

type FakeProvider = { request: ReturnType<typeof vi.fn>; on: ReturnType<typeof vi.fn>; removeListener: ReturnType<typeof vi.fn>; address: string }
const fake = {
  connect: vi.fn(),
  restore: vi.fn(),
  disconnect: vi.fn(async () => {}),
}

vi.mock('../../../src/wallet/walletConnectLoader', () => ({
  loadWalletConnect: async () => ({
    createWalletConnect: () => ({ connect: fake.connect, restore: fake.restore, disconnect: fake.disconnect, close: async () => {} }),
  }),
}))

const { createWalletConnectWallet } = await import('../../../src/wallet/walletConnectWallet')
const { walletProblemOf } = await import('../../../src/errors/WalletError')

const ADDRESS = '0x00000000000000000000000000000000000000a8'
const provider = (): FakeProvider => ({ request: vi.fn(async () => '0xsigned'), on: vi.fn(), removeListener: vi.fn(), address: ADDRESS })

function wallet() {
  const host = document.createElement('div')
  document.body.appendChild(host)
  const w = createWalletConnectWallet({
    config: { projectId: 'test' },
    scope: { partner: 'p', apiBase: 'https://api.example' },
    chains: [{ id: 8453, name: 'Base' }] as never,
    host,
  })
  return { w, host }
}

beforeEach(() => {
  document.body.innerHTML = ''
  fake.connect.mockReset()
  fake.restore.mockReset()
  fake.disconnect.mockClear()
})

describe('createWalletConnectWallet', () => {
  it('before a session: eth_accounts is [], and nothing loads or connects', async () => {
    const { w } = wallet()
    expect(await w.request({ method: 'eth_accounts' })).toEqual([])
    expect(fake.restore).not.toHaveBeenCalled()
    expect(fake.connect).not.toHaveBeenCalled()
  })

  it('eth_requestAccounts resumes a live session without the pairing dialog, and then asks the session', async () => {
    const live = provider()
    fake.restore.mockResolvedValue({ provider: live, address: ADDRESS, chainId: 8453 })
    const { w, host } = wallet()
    expect(await w.request({ method: 'eth_requestAccounts' })).toEqual([ADDRESS])
    expect(fake.connect).not.toHaveBeenCalled()
    expect(host.querySelector('dialog')).toBeNull()
    expect(await w.request({ method: 'personal_sign', params: ['0x00', ADDRESS] })).toBe('0xsigned')
    expect(live.request).toHaveBeenCalledWith({ method: 'personal_sign', params: ['0x00', ADDRESS] })
  })

  it('the pairing dialog closed by the buyer rejects eth_requestAccounts with 4001, and the dialog is gone', async () => {
    fake.restore.mockResolvedValue(undefined)
    // The client waits for the phone until the signal aborts, as sign-client's connect does.
    fake.connect.mockImplementation(
      ({ signal, onUri }: { signal: AbortSignal; onUri: (uri: string) => void }) =>
        new Promise((_, reject) => {
          onUri('wc:' + 'a'.repeat(64) + '@2?relay-protocol=irn&symKey=' + 'b'.repeat(64))
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        }),
    )
    const { w, host } = wallet()
    const asked = w.request({ method: 'eth_requestAccounts' })
    await vi.waitFor(() => expect(host.querySelector('dialog')).not.toBeNull())
    const cancel = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')
    expect(cancel).toBeDefined()
    cancel?.click()
    await expect(asked).rejects.toMatchObject({ code: 4001 })
    expect(host.querySelector('dialog')).toBeNull()
  })

  it('a request before connecting fails with 4100 and reaches no client', async () => {
    const { w } = wallet()
    await expect(w.request({ method: 'eth_sendTransaction', params: [{}] })).rejects.toMatchObject({ code: 4100 })
    await expect(w.request({ method: 'personal_sign', params: ['0x00', ADDRESS] })).rejects.toMatchObject({ code: 4100 })
    expect(fake.restore).not.toHaveBeenCalled()
  })

  it('a session the phone ended: later requests fail with its end (the phone ended it), not as a wallet never connected', async () => {
    const live = provider()
    fake.restore.mockResolvedValue({ provider: live, address: ADDRESS, chainId: 8453 })
    const { w } = wallet()
    await w.request({ method: 'eth_requestAccounts' })
    const ended = Object.assign(new Error('The WalletConnect session has ended'), { name: 'WalletConnectSessionEnded', code: 4900, by: 'wallet' })
    const onDisconnect = live.on.mock.calls.filter(([event]) => event === 'disconnect').map(([, listener]) => listener)
    for (const listener of onDisconnect) listener(ended)
    await expect(w.request({ method: 'eth_sendTransaction', params: [{}] })).rejects.toBe(ended)
    expect(walletProblemOf(await w.request({ method: 'personal_sign', params: ['0x00', ADDRESS] }).catch((e) => e))).toBe('ended')
    // The chain asked before a prompt (the payout's checks) says it too: told before any mark that the wallet was asked.
    await expect(w.request({ method: 'eth_chainId' })).rejects.toBe(ended)
    expect(live.request).not.toHaveBeenCalled()
    // Connected again: the end is forgotten.
    const next = provider()
    fake.restore.mockResolvedValue({ provider: next, address: ADDRESS, chainId: 8453 })
    await w.request({ method: 'eth_requestAccounts' })
    expect(await w.request({ method: 'personal_sign', params: ['0x00', ADDRESS] })).toBe('0xsigned')
  })

  it('a session that ends with no reason given is still said as ended, not as a wallet never connected', async () => {
    const live = provider()
    fake.restore.mockResolvedValue({ provider: live, address: ADDRESS, chainId: 8453 })
    const { w } = wallet()
    await w.request({ method: 'eth_requestAccounts' })
    for (const [event, listener] of live.on.mock.calls) if (event === 'disconnect') listener()
    expect(walletProblemOf(await w.request({ method: 'eth_sendTransaction', params: [{}] }).catch((e) => e))).toBe('ended')
  })

  it('disconnect ends the session through the client (on the relay, and its stored copy), and asks nothing of the phone', async () => {
    const live = provider()
    fake.restore.mockResolvedValue({ provider: live, address: ADDRESS, chainId: 8453 })
    const { w } = wallet()
    await w.request({ method: 'eth_requestAccounts' })
    await w.disconnect()
    expect(fake.disconnect).toHaveBeenCalledTimes(1)
    expect(live.request).not.toHaveBeenCalled()
    expect(await w.request({ method: 'eth_accounts' })).toEqual([])
  })

  it("disconnect('pairedHere') ends only a session this page paired: one restored from storage (maybe another tab's) stays", async () => {
    const restored = wallet()
    fake.restore.mockResolvedValue({ provider: provider(), address: ADDRESS, chainId: 8453 })
    await restored.w.request({ method: 'eth_requestAccounts' })
    await restored.w.disconnect('pairedHere')
    expect(fake.disconnect).not.toHaveBeenCalled()
    const paired = wallet()
    fake.restore.mockResolvedValue(undefined)
    fake.connect.mockResolvedValue({ provider: provider(), address: ADDRESS, chainId: 8453 })
    await paired.w.request({ method: 'eth_requestAccounts' })
    await paired.w.disconnect('pairedHere')
    expect(fake.disconnect).toHaveBeenCalledTimes(1)
  })
})
