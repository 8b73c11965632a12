// Raw-socket helpers for hostile requests against createNodeListener (public API only). Nothing
// here measures time: every helper resolves on an event (an answer, a close).
import { type Server, createServer } from 'node:http'
import { type AddressInfo, type Socket, connect } from 'node:net'
import { type FetchHandler, type NodeListenerOptions, createNodeListener, createPartnerHandler } from '../../../../src/server/index'

export type Served = {
  port: number
  server: Server
  /** Lines the listener logged. */
  lines: string[]
  /** How many requests reached the fetch handler. */
  calls: () => number
  /** What the server read off all the sockets it accepted. */
  bytesRead: () => number
  /** Connections the server still holds. */
  connections: () => Promise<number>
  close: () => void
}

export async function serve(handle: FetchHandler, options: NodeListenerOptions = {}): Promise<Served> {
  const lines: string[] = []
  let calls = 0
  const listener = createNodeListener((request) => (calls++, handle(request)), { log: (line) => lines.push(line), ...options })
  const server = createServer(listener)
  const sockets: Socket[] = []
  server.on('connection', (socket: Socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    server,
    lines,
    calls: () => calls,
    bytesRead: () => sockets.reduce((sum, socket) => sum + socket.bytesRead, 0),
    connections: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

/** What each hostile test's kit is: on /partner for https://shop.example, the bearer token its user's id. */
export const KIT_BASICS = { apiBase: 'https://api.example', apiKey: 'sk_test_key', allowedOrigins: ['https://shop.example'], basePath: '/partner', authenticate: (token: string) => token }

/** The kit on /partner; its service a fake that records every request and answers `answer`. */
export function kit(options: Partial<Parameters<typeof createPartnerHandler>[0]> = {}, answer: (url: string, init: RequestInit) => Response = () => Response.json({ limits: [] })) {
  const lines: string[] = []
  const forwarded: Array<{ url: string; body?: unknown }> = []
  const handle = createPartnerHandler({
    ...KIT_BASICS,
    allowAnonymous: true,
    fetch: (async (input: string | URL, init: RequestInit) => {
      forwarded.push({ url: String(input), body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined })
      return answer(String(input), init)
    }) as unknown as typeof fetch,
    log: (line) => lines.push(line),
    ...options,
  })
  return { handle, lines, forwarded }
}

/** A client connection that keeps writing after the server's end (an upload does), collecting what comes back. */
export function client(port: number) {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
  let raw = ''
  const waiters: Array<() => void> = []
  socket.on('data', (chunk) => {
    raw += chunk.toString('latin1')
    for (const wake of waiters.splice(0)) wake()
  })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.once('close', () => {
    for (const wake of waiters.splice(0)) wake()
  })
  return {
    socket,
    raw: () => raw,
    closed,
    write: (data: string | Buffer) => new Promise<Error | null | undefined>((resolve) => socket.write(data, resolve)),
    /** Resolves once what was received matches (or the connection closed). */
    until: async (pattern: RegExp) => {
      while (!pattern.test(raw) && !socket.destroyed && socket.readyState !== 'closed') await new Promise<void>((resolve) => waiters.push(resolve))
      return raw
    },
  }
}

/** Sends `data`, resolves with everything received once the server closed the connection. */
export { rawExchange as exchange } from '../../helpers/httpAttacks'

/** Every answer in a raw HTTP/1.1 stream: status, headers, body (Content-Length bodies; HEAD-less). */
export function answers(raw: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const out: Array<{ status: number; headers: Record<string, string>; body: string }> = []
  let rest = raw
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n')
    if (end < 0) break
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n')
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
    const length = Number(headers['content-length'] ?? 0)
    const status = Number(statusLine.split(' ')[1])
    const bodyless = status === 100 || status === 204 || status === 304
    const body = bodyless ? '' : rest.slice(end + 4, end + 4 + length)
    out.push({ status, headers, body })
    rest = rest.slice(end + 4 + body.length)
  }
  return out
}

export const code = (body: string): string | undefined => {
  try {
    return JSON.parse(body).error?.code
  } catch {
    return undefined
  }
}
