// What an attacker sends a partner's server, over raw sockets (issue 37): a body announced and
// never sent, a chunked body far over the kit's 16 KiB cap, a client that writes on after the
// answer (and requests pipelined behind it). Shared by the adapter's unit tests and the package's
// servers test. Nothing here measures time: every helper resolves on an event.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import { type AddressInfo, type Socket, connect } from 'node:net'
import { createPartnerHandler } from '../../../src/server/handler'

/** POST with `Content-Length: 100`, 6 bytes of it, then the client hangs up. Resolves once the socket is closed. */
export function truncatedPost(port: number, path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    socket.on('close', () => resolve())
    socket.on('data', () => {})
    socket.end(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1`)
  })
}

export type Flood = { written: number; response: string; closed: boolean }

/**
 * POST `total` bytes as a chunked body in 64 KiB chunks (`headers`: more header lines, each ending
 * in CRLF), until all is sent, the server answers (a browser stops there too) or it closes the
 * connection. `written`: the bytes the kernel took (a write's callback ran); `response`: what the
 * server answered.
 */
export function chunkedFlood(port: number, path: string, total: number, headers = ''): Promise<Flood> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1')
    const chunk = Buffer.alloc(64 * 1024, 'a')
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    let queued = 0
    let written = 0
    let response = ''
    let closed = false
    socket.on('data', (data) => (response += data.toString('latin1')))
    socket.on('error', () => {})
    socket.on('close', () => {
      closed = true
      resolve({ written, response, closed })
    })
    // One write per turn of the event loop, so that an answer is read (and ends the flood) before
    // the next write: writing into a connection the server has closed gets EPIPE, and Node then
    // drops the socket with the answer unread in it.
    const pump = () => {
      if (closed || socket.destroyed || response !== '') return
      if (queued >= total) return void socket.end('0\r\n\r\n')
      queued += chunk.length
      socket.write(frame, (error) => {
        if (error) return
        written += chunk.length
        setImmediate(pump)
      })
    }
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${headers}\r\n`)
      pump()
    })
  })
}

/** The status line's code and the JSON body of a raw HTTP/1.1 answer (Content-Length or chunked). */
export function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', ...rest] = raw.split('\r\n\r\n')
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  let body = rest.join('\r\n\r\n')
  if (headers['transfer-encoding'] === 'chunked') {
    let out = ''
    for (let at = 0; ; ) {
      const end = body.indexOf('\r\n', at)
      const size = parseInt(body.slice(at, end), 16)
      if (!size) break
      out += body.slice(end + 2, end + 2 + size)
      at = end + 2 + size + 2
    }
    body = out
  } else if (headers['content-length'] !== undefined) {
    body = body.slice(0, Number(headers['content-length']))
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body }
}

/** Sends `data` as is and resolves with everything the server wrote, once it closed the connection. */
export function rawExchange(port: number, data: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let response = ''
    socket.on('data', (chunk) => (response += chunk.toString('latin1')))
    socket.on('error', () => {})
    socket.on('close', () => resolve(response))
    socket.write(data)
  })
}

/** A client connection that keeps writing after the server's end (an upload does), collecting what comes back. */
export function client(port: number) {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
  let raw = ''
  const waiters: Array<() => void> = []
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake()
  }
  socket.on('data', (chunk) => {
    raw += chunk.toString('latin1')
    wakeAll()
  })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.once('close', wakeAll)
  return {
    socket,
    raw: () => raw,
    closed,
    /** Resolves once the kernel took `data` (its error, if it failed). */
    write: (data: string | Buffer) => new Promise<Error | null | undefined>((resolve) => socket.write(data, resolve)),
    /** Resolves once what was received matches (or the connection closed). */
    until: async (pattern: RegExp) => {
      while (!pattern.test(raw) && !socket.destroyed && socket.readyState !== 'closed') await new Promise<void>((resolve) => waiters.push(resolve))
      return raw
    },
  }
}

/** Every answer in a raw HTTP/1.1 stream, in order (Content-Length bodies, 1xx without one). */
export function answers(raw: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const out: Array<{ status: number; headers: Record<string, string>; body: string }> = []
  let rest = raw
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n')
    if (end < 0) break
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n')
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
    const status = Number(statusLine.split(' ')[1])
    const bodyless = (status >= 100 && status < 200) || status === 204 || status === 304
    const body = bodyless ? '' : rest.slice(end + 4, end + 4 + Number(headers['content-length'] ?? 0))
    out.push({ status, headers, body })
    rest = rest.slice(end + 4 + body.length)
  }
  return out
}

/** The contract's error code in a JSON answer's body, if it has one. */
export const code = (body: string): string | undefined => {
  try {
    return JSON.parse(body).error?.code
  } catch {
    return undefined
  }
}

export type Listening = {
  port: number
  server: Server
  /** What the server read off all the sockets it accepted. */
  bytesRead: () => number
  /** Connections the server still holds. */
  connections: () => Promise<number>
  close: () => void
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** A node:http server on 127.0.0.1 serving `listener`, and its `checkContinue` for 'checkContinue' if it has one. */
export async function listen(listener: Listener & { checkContinue?: Listener }): Promise<Listening> {
  const server = createServer(listener)
  if (listener.checkContinue) server.on('checkContinue', listener.checkContinue)
  const sockets: Socket[] = []
  server.on('connection', (socket: Socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    server,
    bytesRead: () => sockets.reduce((sum, socket) => sum + socket.bytesRead, 0),
    connections: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

/** The kit on /partner, anonymous reads allowed; its service a fake that records every URL it is sent. */
export function recordingKit() {
  const forwarded: string[] = []
  const handle = createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    allowedOrigins: ['https://shop.example'],
    basePath: '/partner',
    authenticate: (token) => token,
    allowAnonymous: true,
    fetch: (async (input: string | URL) => (forwarded.push(String(input)), Response.json({ limits: [] }))) as unknown as typeof fetch,
    log: () => {},
  })
  return { handle, forwarded }
}
