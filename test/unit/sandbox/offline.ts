// Every way out of the process, counted by the host it was asked for: fetch (viem's transport,
// WalletConnect core's Verify and telemetry) and every socket (the relay's WebSocket; net, tls and
// Node's fetch all connect through Socket's connect). Loopback passes; anything else is recorded
// in `outside` (and a fetch is refused). `restore` puts the real fetch and connect back.
import { Socket } from 'node:net'
// @ts-expect-error: plain ESM module of the sandbox
import { startAnvil } from '../../sandbox/anvil.mjs'
import { freePort } from './bankStack'

export function guardOffline() {
  const outside: string[] = []
  const loopback = (host: string) => ['127.0.0.1', '::1', '::ffff:127.0.0.1', 'localhost'].includes(host)
  const realFetch = globalThis.fetch
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (loopback(url.hostname)) return realFetch(input, init)
    outside.push(url.href)
    return Promise.reject(new TypeError(`offline: ${url.href}`))
  }
  const realConnect = Socket.prototype.connect
  Socket.prototype.connect = function (this: Socket, ...args: any[]) {
    // net.connect hands over its normalized [options, callback]; a direct call gives options or (port, host).
    const first = Array.isArray(args[0]) ? args[0][0] : args[0]
    const options = typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined }
    if (!options.path && !loopback(options.host ?? 'localhost')) outside.push(`socket ${options.host}:${options.port}`)
    return realConnect.apply(this, args as Parameters<typeof realConnect>)
  } as typeof realConnect
  const restore = () => {
    globalThis.fetch = realFetch
    Socket.prototype.connect = realConnect
  }
  return { outside, restore }
}

export type AnvilNode = { url: string; stop: () => Promise<void> }

// One anvil chain a chain id, each on a free port, in order.
export async function startChains(...chainIds: number[]): Promise<AnvilNode[]> {
  const nodes: AnvilNode[] = []
  for (const chainId of chainIds) nodes.push(await startAnvil({ chainId, port: await freePort() }))
  return nodes
}
