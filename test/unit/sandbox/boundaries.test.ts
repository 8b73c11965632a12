// Issue 15, items 19, 20 and 21: the sandbox's controls answer loopback pages only, its identity
// page sends codes only to the configured origins, and it names a type error as one.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
// @ts-expect-error: plain ESM module of the sandbox
import { HttpError, parseBody } from '../../sandbox/http.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { fiatRoutes } from '../../sandbox/routes/fiat.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { createSandboxServer } from '../../sandbox/server.mjs'

const WIDGET = 'http://127.0.0.1:4173'
let base = ''
let server: import('node:http').Server
let resets = 0

beforeAll(async () => {
  const fiat = fiatRoutes({ publicBase: 'http://127.0.0.1:0' })
  server = createSandboxServer({
    allowedOrigins: [WIDGET],
    routes: { ...fiat.routes },
    control: { reset: () => void resets++, set: fiat.control.set },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const post = (path: string, headers: Record<string, string> = {}, body = '{}') =>
  fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body, redirect: 'manual' })

describe('/__sandbox/* is not reachable from web pages', () => {
  for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null', 'http://192.168.1.5:8080']) {
    it(`a page on ${origin} cannot reset the sandbox, and gets no CORS headers`, async () => {
      const before = resets
      const res = await post('/__sandbox/reset', { Origin: origin })
      expect(res.status).toBe(403)
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
      expect(resets).toBe(before)
      const preflight = await fetch(`${base}/__sandbox/control`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } })
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
      const log = await fetch(`${base}/__sandbox/log`, { headers: { Origin: origin } })
      expect(log.status).toBe(403)
    })
  }
  for (const origin of ['http://127.0.0.1:4173', 'http://localhost:5173', 'http://[::1]:8787']) {
    it(`a loopback page (${origin}) may, and is answered for its own origin only`, async () => {
      const before = resets
      const res = await post('/__sandbox/reset', { Origin: origin })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
      expect(resets).toBe(before + 1)
    })
  }
  it('a test runner (no Origin) may', async () => {
    expect((await post('/__sandbox/reset')).status).toBe(200)
  })
})

describe('the identity page sends a code only to a configured origin', () => {
  const verify = (returnUrl: string) =>
    fetch(`${base}/identity/verify`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ returnUrl }).toString(),
      redirect: 'manual',
    })
  for (const returnUrl of ['https://evil.example/steal', 'http://127.0.0.1:4173.evil.example/', 'http://127.0.0.1:9999/', 'https://127.0.0.1:4173/']) {
    it(`refuses ${returnUrl}, with no code issued`, async () => {
      const res = await verify(returnUrl)
      expect(res.status).toBe(400)
      expect(res.headers.get('location')).toBeNull()
      const page = await fetch(`${base}/identity?returnUrl=${encodeURIComponent(returnUrl)}`)
      expect(page.status).toBe(400)
    })
  }
  it('returns to the widget with a code', async () => {
    const res = await verify(`${WIDGET}/?flow=onboarding`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:4173\/\?flow=onboarding&authCode=ac_/)
  })
})

describe('type errors in requests are named as such', () => {
  const schema = z.object({ receipt: z.object({ logs: z.array(z.object({ topics: z.array(z.string()) })) }) })
  const problem = (body: unknown) => {
    try {
      parseBody(schema, body)
    } catch (error) {
      return (error as InstanceType<typeof HttpError>).message
    }
    return 'accepted'
  }
  it('a number where a string belongs is named, not "required"', () => {
    expect(problem({ receipt: { logs: [{ topics: [5] }] } })).toBe('receipt.logs.0.topics.0: expected a string, got a number')
  })
  it('null and arrays are named too', () => {
    expect(problem({ receipt: { logs: [{ topics: [null] }] } })).toBe('receipt.logs.0.topics.0: expected a string, got null')
    expect(problem({ receipt: { logs: [{ topics: 'x' }] } })).toBe('receipt.logs.0.topics: expected an array, got a string')
  })
  it('a missing field is "required"', () => {
    expect(problem({ receipt: { logs: [{}] } })).toBe('receipt.logs.0.topics: required')
    expect(problem(undefined)).toBe('body: required')
  })
})
