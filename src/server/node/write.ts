// A fetch-standard Response written to node:http: buffered with its Content-Length when short,
// streamed when long, and the connection closed, lingering, when the request's body was not read.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

// An answer up to this size is sent with its Content-Length; a longer one is streamed.
const BUFFERED = 64 * 1024
// How long a connection closed with its body unread waits after the answer before it is destroyed.
const LINGER_MS = 2000
export const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }

// Connections whose answer says `Connection: close`: nothing more is read off them, and a request
// parsed behind that answer (from bytes read before it) is no request of the kit's.
const closing = new WeakSet<Socket>()

/** Whether `req` came in behind an answer that closes its connection. */
export const behindClose = (req: IncomingMessage) => req.socket != null && closing.has(req.socket)

/**
 * Writes `response` to `res`, if the client is still there. A body not read to its end (`close`,
 * or the request not complete) closes the connection after the answer, lingering (`linger`).
 */
export async function write(req: IncomingMessage, res: ServerResponse, response: Response, close: boolean) {
  const reader = response.body?.getReader()
  try {
    if (res.destroyed || res.headersSent) return void (await reader?.cancel())
    const chunks: Uint8Array[] = []
    let size = 0
    let done = !reader
    while (!done && size <= BUFFERED) {
      const read = await reader!.read()
      if (read.done) done = true
      else {
        chunks.push(read.value)
        size += read.value.byteLength
      }
    }
    if (res.destroyed) return void (await reader?.cancel())
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of response.headers) {
      if (/^(connection|keep-alive|transfer-encoding|content-length)$/i.test(name)) continue
      const had = headers[name]
      headers[name] = had === undefined ? value : [had, value].flat()
    }
    if (done) headers['content-length'] = String(size)
    if (close || !req.complete) {
      headers.connection = 'close'
      stopReading(req)
    }
    if (!req.complete) linger(req)
    res.writeHead(response.status, headers)
    for (const chunk of chunks) res.write(chunk)
    while (!done && !res.destroyed) {
      const read = await reader!.read()
      if (read.done) done = true
      else if (!res.write(read.value)) await drained(res)
    }
    if (res.destroyed) await reader?.cancel()
    else res.end()
  } catch {
    // A header node:http refuses, or a body that failed while read: 500 if nothing is sent yet.
    await reader?.cancel().catch(() => {})
    if (res.destroyed) return
    if (res.headersSent) return void res.destroy()
    const body = JSON.stringify({ error: { code: 'kit_error', message: 'Unexpected error in the partner backend.' } })
    stopReading(req)
    if (!req.complete) linger(req)
    res.writeHead(500, { ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    res.end(body)
  }
}

/**
 * Nothing more is read off a connection whose answer closes it: no more of the body, no request
 * pipelined behind it. node:http would read on: once the answer is out it resumes the request to
 * discard the rest of its body (IncomingMessage's dump), and parses what follows as requests, each
 * handed to the listener and answered nowhere. So reading stops now, and again whenever something
 * resumes the socket. Writing is untouched: the answer goes out. (HTTP/1 only: an HTTP/2 stream is
 * not its connection.)
 *
 * node:http parses a socket in C++ and stops its reads on the socket's 'pause' event, which
 * `pause()` emits only while the stream is flowing; a socket resumed while something listens for
 * 'readable' reads on unflowing, and `pause()` alone would not stop it (measured: a request
 * pipelined behind a chunked 413 was still parsed). Hence the event, emitted in any case.
 */
function stopReading(req: IncomingMessage) {
  const { socket } = req
  if (req.httpVersionMajor !== 1 || !socket || socket.destroyed || closing.has(socket)) return
  closing.add(socket)
  const stop = () => {
    socket.pause()
    socket.emit('pause')
  }
  stop()
  socket.on('resume', stop)
}

/**
 * node:http closes a connection answered `Connection: close` as soon as the answer is flushed
 * (socket.destroySoon). Body bytes still unread then make the kernel send a reset, which reaches a
 * client still sending together with the answer, and the client can lose the answer before it has
 * read it (RFC 9112, 9.6). So the close waits: the answer and the end of our side go out, nothing
 * more is read (stopReading; a client closing its side is not seen behind the unread bytes), and the connection
 * is destroyed LINGER_MS later. What it costs is a socket held that long, not a byte more read.
 */
function linger(req: IncomingMessage) {
  const { socket } = req
  if (!socket || socket.destroyed) return
  socket.destroySoon = () => {
    socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
