// The partner servers the docs show, against the packed package: the README's (node:http) and
// docs/partner-kit.md's Express, Fastify, Hono and Next.js examples compile under nodenext; the
// README's, the Express and the Fastify one run as a partner would run them, in a process of
// their own, and are attacked (issue 37): a body announced and never sent, then a chunked body of
// 48 MiB. Each must answer, stop reading the flood, and still answer a normal request: the
// process stays up. (The README's hand-written node:http server, before createNodeListener, died
// of (a) with an unhandled ECONNRESET rejection, and read all 48 MiB of (b).)
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chunkedFlood, parseAnswer, truncatedPost } from '../unit/helpers/httpAttacks'
import { type PackedApp, ROOT, packApp } from './packedApp'
import { freePort } from '../unit/sandbox/bankStack'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const kitDoc = readFileSync(join(ROOT, 'docs/partner-kit.md'), 'utf8')
const block = (doc: string, marker: string) => new RegExp(`<!-- ${marker} -->\\s*\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1]
// Each example under its marker. Next.js is not installed (it is large): its route handler is
// compiled with the fetch standard's Request and Response, which are the types it is called with.
const EXAMPLES = {
  'node:http (README)': block(readme, 'partner-server'),
  Express: block(kitDoc, 'partner-server:express'),
  Fastify: block(kitDoc, 'partner-server:fastify'),
  Hono: block(kitDoc, 'partner-server:hono'),
  'Next.js': block(kitDoc, 'partner-server:next'),
}
const MiB = 1024 * 1024

let packed: PackedApp
const children: ChildProcess[] = []
beforeAll(() => {
  packed = packApp()
}, 60_000)
afterAll(() => {
  for (const child of children) child.kill()
  packed?.remove()
})

describe('the partner servers of the docs, against the packed package', () => {
  it.each(Object.entries(EXAMPLES))(
    '%s compiles under moduleResolution nodenext',
    (name, source) => {
      expect(source, `${name}: a \`\`\`ts block after its marker`).toBeTruthy()
      const file = `${name.replace(/\W+/g, '-')}.ts`
      writeFileSync(join(packed.app, file), source!)
      const { output, status } = packed.compile([file])
      expect(output).toBe('')
      expect(status).toBe(0)
    },
    60_000,
  )

  it.each(['node:http (README)', 'Express', 'Fastify'] as const)(
    '%s survives a truncated body and a 48 MiB flood, and answers after them',
    async (name) => {
      const port = await freePort()
      // As written, but on a free port of 127.0.0.1, and with one session of yours: user-1's.
      const source = EXAMPLES[name]!.replace(/\.listen\(8080\)/, `.listen(${port}, '127.0.0.1')`)
        .replace(/\.listen\(\{ port: 8080 \}\)/, `.listen({ port: ${port}, host: '127.0.0.1' })`)
        .replace('new Map<string, { userId: string }>()', "new Map<string, { userId: string }>([['test-token', { userId: 'user-1' }]])")
      expect(source).toContain(`${port}`)
      expect(source).toContain('test-token')
      const file = `run-${name.replace(/\W+/g, '-')}.ts`
      writeFileSync(join(packed.app, file), source)
      const compiled = packed.compile([file], join(packed.app, 'out'))
      expect(compiled.output).toBe('')
      const server = start(join(packed.app, 'out', file.replace(/\.ts$/, '.js')), packed.app)
      await server.listening(port)

      // (a) 6 bytes of an announced 100, then the client hangs up: nothing to answer, nothing to crash.
      await truncatedPost(port, '/partner/card/purchase')
      await expectAnswered(port, server)
      // (b) A chunked body of 48 MiB, from one of your users: 413 after the first 16 KiB, and the
      // connection closed. The client stops at the answer, as a browser does: what it got into the
      // socket by then is what the kernel's buffers hold (a server reading on takes all 48 MiB first).
      const flood = await chunkedFlood(port, '/partner/card/purchase', 48 * MiB, 'Authorization: Bearer test-token\r\n')
      expect(flood.closed).toBe(true)
      expect(flood.written).toBeLessThan(24 * MiB)
      const refused = parseAnswer(flood.response)
      expect(refused.status, `${JSON.stringify({ ...flood, response: flood.response.slice(0, 300) })}\n${server.output()}`).toBe(413)
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'body_too_large' } })
      expect(refused.headers.connection).toBe('close')
      // (c) Then a normal request, still answered.
      await expectAnswered(port, server)
    },
    90_000,
  )
})

/** A normal request, answered by the kit (no token: 401 in the envelope), by a process still up. */
async function expectAnswered(port: number, server: ReturnType<typeof start>) {
  const res = await fetch(`http://127.0.0.1:${port}/partner/card/purchase`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  }).catch((error: Error) => error)
  // Not answered: most likely the process died; its exit (and its last words) may still be on the way.
  if (!(res instanceof Response)) await Promise.race([server.exit, new Promise((resolve) => setTimeout(resolve, 5000))])
  expect(server.exited(), server.output()).toBe(null)
  expect(res).toBeInstanceOf(Response)
  expect((res as Response).status).toBe(401)
  expect(await (res as Response).json()).toMatchObject({ error: { code: 'unauthenticated' } })
}

/** The partner's server as its own process; `exited()` is its exit code or signal, null while it runs. */
function start(file: string, cwd: string) {
  let output = ''
  let exit: string | null = null
  const child = spawn(process.execPath, [file], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = `exited with ${code ?? signal}`
      resolve()
    }),
  )
  return {
    exit: exited,
    output: () => output,
    exited: () => exit,
    /** Resolves once the port takes a connection (the store opens first: PGlite takes seconds). */
    async listening(port: number) {
      for (;;) {
        if (exit) throw new Error(`the server ${exit}:\n${output}`)
        const up = await new Promise<boolean>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.destroy()
            resolve(true)
          })
          socket.on('error', () => resolve(false))
        })
        if (up) return
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
  }
}
