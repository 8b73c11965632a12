// The whole local stand-in: two anvil chains, the contracts, and the sandbox service.
import { startAnvil } from './anvil.mjs'
import { DEV_ACCOUNTS, deployAll } from './deploy.mjs'
import { bankDepositRoutes } from './routes/bankDeposit.mjs'
import { KEY, cardRoutes, partnerKit } from './routes/card.mjs'
import { cardPayoutRoutes } from './routes/cardPayout.mjs'
import { depositRoutes } from './routes/deposit.mjs'
import { exampleRoutes } from './routes/examples.mjs'
import { fiatRoutes } from './routes/fiat.mjs'
import { createPartnerDemo } from './routes/partnerDemo.mjs'
import { PAYOUT_CHAIN, payoutRoutes } from './routes/payout.mjs'
import { referenceRoutes } from './routes/reference.mjs'
import { sandboxEntry } from './demoUrl.mjs'
import { createSandboxServer } from './server.mjs'
import { generateSigningKeys } from './sign.mjs'

/** The sandbox partner's own wallet on the destination chain: where the deposits its kit credits settle. No dev account. */
export const PARTNER_TREASURY = '0x000000000000000000000000000000000000ba5e'

export const DEFAULT_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173', 'http://127.0.0.1:4173']

export async function startStack(opts = {}) {
  const { sourcePort = 8545, destPort = 8546, apiPort = 8787, quiet = false } = opts
  const extra = (process.env.SANDBOX_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  // The example partner pages are served from the sandbox's own origin: a partner origin to allow.
  const allowedOrigins = [...(opts.allowedOrigins ?? DEFAULT_ORIGINS), `http://127.0.0.1:${apiPort}`, ...extra]
  const say = (...args) => quiet || console.log('[sandbox]', ...args)
  const started = Date.now()

  const nodes = []
  let server
  let modules = []
  let walletConnect
  let stopped
  const stop = () =>
    (stopped ??= (async () => {
      await walletConnect?.close()
      await Promise.all(modules.map((m) => m.close?.()))
      if (server?.listening) {
        const closed = new Promise((resolve) => server.close(resolve))
        server.closeAllConnections()
        await closed
      }
      await Promise.all(nodes.map((n) => n.stop()))
    })())
  try {
    nodes.push(await startAnvil({ chainId: 8453, port: sourcePort }))
    nodes.push(await startAnvil({ chainId: 42161, port: destPort }))
    const [source, destination] = nodes
    const keys = generateSigningKeys()
    const deployed = await deployAll(source, destination)
    const addresses = { sourceToken: deployed.sourceToken, destToken: deployed.destToken, depositor: deployed.depositor }
    const apiBase = `http://127.0.0.1:${apiPort}`
    const config = {
      apiBase,
      chains: [
        { id: 8453, name: 'Base (sandbox)', rpcUrl: source.url },
        { id: 42161, name: 'Arbitrum (sandbox)', rpcUrl: destination.url },
      ],
      sources: [{ chainId: 8453, token: addresses.sourceToken, symbol: 'USDC', decimals: 6 }],
      destination: { chainId: 42161, token: addresses.destToken, symbol: 'USDC', decimals: 6 },
      depositor: addresses.depositor,
      accounts: DEV_ACCOUNTS,
      partnerBase: `${apiBase}/partner`,
      cardHosts: [`127.0.0.1:${apiPort}`],
      // The sandbox partner of the registry the sandbox build is made from, and its signing key
      // (a partner's server keeps this; the widget gets only the public half, from the registry).
      partner: 'sandbox',
      signingKey: keys.privateKey,
    }
    const deposit = depositRoutes({ chains: { src: deployed.src, dst: deployed.dst }, artifacts: deployed.artifacts, addresses })
    // The partner's own server around the kit (its demo users, the kit's store and reconciler);
    // opts.partnerDemo: { dataDir, eager, reconcile, report, log } (partnerDemo.mjs).
    const demo = createPartnerDemo({ kit: partnerKit, apiBase, apiKey: KEY, ...opts.partnerDemo })
    // The partner backend reads crypto deposits from the source chain, as a partner's own RPC.
    const partnerChains = { 8453: { rpcUrl: source.url } }
    // Where the deposits the partner credits settle (the kit's depositDestination): its own
    // treasury on the destination chain, never the buyer's wallet.
    const partnerDestination = { chainId: 42161, token: addresses.destToken, address: PARTNER_TREASURY }
    config.partnerTreasury = PARTNER_TREASURY
    const card = cardRoutes({ chains: { dst: deployed.dst }, publicBase: apiBase, allowedOrigins, partnerChains, partnerDestination, demo })
    // The partner backend's store, opened before serving: PGlite's start holds the event loop for
    // seconds, which mid-test let idle keep-alive sockets die under the kit's requests (ECONNRESET).
    await card.partnerStore()
    // A route module is { routes: { 'POST /path': handler }, control?: { set, reset }, close? }.
    const fiat = fiatRoutes({ publicBase: apiBase })
    config.identityUrl = fiat.identityUrl
    // The users the /fiat stand-in onboarded (accountId → { walletId, wallet, kycStatus, ... }).
    const onboarded = fiat.control.routes['GET /__sandbox/fiat']
    const accounts = (accountId) => new Map(onboarded().body.accounts).get(accountId)
    const bankDeposit = bankDepositRoutes({ chains: { dst: deployed.dst }, artifacts: deployed.artifacts, addresses, accounts })
    const payout = payoutRoutes({ chains: { src: deployed.src }, addresses, accounts })
    // Card payouts: funded, watched and moved by the bank payout's ledger; their card page on the card purchase's host.
    const cardPayout = cardPayoutRoutes({ ledger: payout.ledger, publicBase: apiBase })
    const reference = referenceRoutes()
    // Bank payouts are funded with a plain ERC-20 transfer on this chain; one-off bank deposits
    // settle on the destination chain (config.destination).
    config.payout = { chainId: PAYOUT_CHAIN, token: addresses.sourceToken, symbol: 'USDC', decimals: 6 }
    const examples = exampleRoutes({ config, widgetBase: opts.widgetBase ?? 'http://127.0.0.1:5173', demo })
    modules = [deposit, card, fiat, bankDeposit, payout, cardPayout, reference, examples, demo]
    // WalletConnect offline (opts.walletConnect: { relayPort, phonePort }): the local relay and the
    // phone wallet on these chains (test/sandbox/walletconnect/).
    // Imported here: sign-client takes about a second to load, which a stack without it need not pay.
    if (opts.walletConnect) {
      const { startWalletConnect } = await import('./walletconnect/index.mjs')
      walletConnect = await startWalletConnect({ ...opts.walletConnect, chains: config.chains })
      config.walletConnect = { relayUrl: walletConnect.relayUrl, phoneWallet: walletConnect.phoneUrl, phoneAccount: walletConnect.phone.address }
    }
    server = createSandboxServer({
      allowedOrigins,
      routes: Object.assign({}, ...modules.map((m) => m.routes)),
      control: {
        set: (body) => modules.forEach((m) => m.control?.set?.(body)),
        reset: () => Promise.all(modules.map((m) => m.control?.reset?.())),
        routes: {
          'GET /__sandbox/config': () => ({ body: config }),
          ...fiat.control.routes,
          ...bankDeposit.control.routes,
          ...payout.control.routes,
          ...cardPayout.control.routes,
          ...demo.control.routes,
        },
        plainHeaders: card.plainHeaders,
      },
    })
    await new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(apiPort, '127.0.0.1', resolve)
    })
    say(`chains on ${source.url} (8453) and ${destination.url} (42161); API on ${apiBase}; ready in ${Date.now() - started} ms`)
    const urls = { api: apiBase, sourceRpc: source.url, destRpc: destination.url }
    const registry = [sandboxEntry(config, keys.publicKey)]
    // The partner backend's store (PGlite, opened on first use): what the kit recorded, for tests and the demo.
    return { config, registry, urls, pids: nodes.map((n) => n.pid), stop, partnerStore: card.partnerStore, phoneWallet: walletConnect?.phone }
  } catch (error) {
    await stop()
    throw error
  }
}
