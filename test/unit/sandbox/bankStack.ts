// A whole sandbox stack (two anvil chains, the contracts, the service) on free ports, for the
// bank deposit and payout tests, with an onboarded user and helpers for the partner path.
import { fileURLToPath } from 'node:url'
import { freePort } from '../helpers/freePort'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { http, createPublicClient, createWalletClient, defineChain, erc20Abi, type Address, type Hex } from 'viem'

export const KEY = 'sk_sandbox_partner_key'
export const ORIGIN = 'http://127.0.0.1:5173'

export { freePort }

type Config = {
  apiBase: string
  accounts: Address[]
  sources: Array<{ token: Address }>
  destination: { token: Address }
  payout: { chainId: number; token: Address; symbol: string; decimals: number }
}
export type BankStack = Awaited<ReturnType<typeof startBankStack>>
type Onboarded = { accountId: string; walletId: string; kycStatus: string }

/** Registers the file's beforeAll that starts a stack (handing it to `keep`, within `timeoutMs`) and the afterAll that stops it. */
export function bankStackForFile(keep: (stack: BankStack) => void, timeoutMs: number) {
  let started: BankStack | undefined
  beforeAll(async () => {
    started = await startBankStack()
    keep(started)
  }, timeoutMs)
  afterAll(() => started?.stop())
}

/**
 * The payout tests' file setup: a stack with anvil's account `walletIndex` onboarded (handed to
 * `keep`), reset before each test with the payout's steps 30 ms apart.
 */
export function payoutStackForFile(walletIndex: number, keep: (ready: { s: BankStack; wallet: Address; accountId: string }) => void, timeoutMs: number) {
  let started: BankStack | undefined
  beforeAll(async () => {
    started = await startBankStack()
    const wallet = started.config.accounts[walletIndex]
    keep({ s: started, wallet, accountId: (await started.onboard(wallet)).accountId })
  }, timeoutMs)
  afterAll(() => started?.stop())
  beforeEach(async () => {
    await started!.reset()
    await started!.control('/control', { payoutStepMs: 30 })
  })
}

export async function startBankStack() {
  // The sandbox runs the built kit (dist/server); here it runs the kit's source, and builds nothing.
  process.env.SANDBOX_PARTNER_KIT = fileURLToPath(new URL('../../../src/server/index.ts', import.meta.url))
  // @ts-expect-error: plain ESM module of the sandbox
  const { startStack } = await import('../../sandbox/stack.mjs')
  const [sourcePort, destPort, apiPort] = [await freePort(), await freePort(), await freePort()]
  const stack = await startStack({ sourcePort, destPort, apiPort, quiet: true })
  // The partner backend's store opens on its first request; open it now (PGlite takes seconds).
  await stack.partnerStore()
  const config = stack.config as Config
  const base = config.apiBase
  const chain = (id: number, url: string) =>
    defineChain({ id, name: `anvil ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
  const src = chain(8453, stack.urls.sourceRpc)
  const dst = chain(42161, stack.urls.destRpc)
  const srcPublic = createPublicClient({ chain: src, transport: http(), pollingInterval: 50 })
  const dstPublic = createPublicClient({ chain: dst, transport: http(), pollingInterval: 50 })

  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
  const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' }
  const s = {
    stack,
    config,
    base,
    srcPublic,
    dstPublic,
    /** The partner path, with the key. */
    v1: (path: string, body: unknown, extra: Record<string, string> = headers) =>
      fetch(`${base}/v1${path}`, { method: 'POST', headers: extra, body: JSON.stringify(body) }).then(json),
    v1get: (path: string, extra: Record<string, string> = headers) => fetch(`${base}/v1${path}`, { headers: extra }).then(json),
    /** The partner-backend stand-in (the kit), as the widget calls it. */
    partner: (path: string, body?: unknown) =>
      fetch(
        `${base}/partner${path}`,
        body === undefined
          ? { headers: { Origin: ORIGIN } }
          : { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      ).then(json),
    control: (path: string, body: unknown = {}) => fetch(`${base}/__sandbox${path}`, { method: 'POST', body: JSON.stringify(body) }).then(json),
    reset: () => fetch(`${base}/__sandbox/reset`, { method: 'POST' }).then(json),
    /** A new applicant onboarded with a code the sandbox issues for it. */
    async onboard(wallet: Address, name = 'Ada Lovelace'): Promise<Onboarded> {
      const authCode = `ac_${Math.random().toString(36).slice(2)}`
      await s.control('/control', { issueAuthCode: authCode })
      return s.onboardWith(authCode, wallet, name)
    },
    /** POST /fiat/onboard as the widget sends it, with the identity provider's `authCode`. */
    async onboardWith(authCode: string, wallet: Address, name = 'Ada Lovelace'): Promise<Onboarded> {
      const res = await fetch(`${base}/fiat/onboard`, {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          authCode,
          applicantInfo: { nationality: 'DE', phone: '+4915112345678' },
          individual: { name, email: 'ada@example.com', country: 'DE' },
          wallet,
        }),
      })
      return (await res.json()) as Onboarded
    },
    balance: (client: typeof srcPublic, token: Address, owner: Address) =>
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
    /** A plain ERC-20 transfer on the source chain from an unlocked dev account, as a wallet sends it. */
    async transfer(from: Address, to: Address, amount: bigint): Promise<Hex> {
      const wallet = createWalletClient({ chain: src, transport: http(), account: from })
      const hash = await wallet.writeContract({ address: config.payout.token, abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
      await srcPublic.waitForTransactionReceipt({ hash })
      return hash
    },
    stop: () => stack.stop() as Promise<void>,
  }
  return s
}

export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 4000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
