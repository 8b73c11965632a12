// @vitest-environment node
// The one door to the partner's backend (src/api/partnerHttp.ts) carries the partner's bearer
// token. A backend that answers with a redirect (a misrouted proxy, an open redirect on its host, a
// compromised answer) must not get that token, or the buyer's signed message, sent to another origin.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as z from 'zod/mini'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createPartnerHttp } from '../../../src/api/partnerHttp'

let partner: Server
let thief: Server
let partnerBase = ''
let thiefOrigin = ''
const stolen: Array<{ url?: string; headers: IncomingHttpHeaders; body: string }> = []

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))

beforeAll(async () => {
  thief = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      stolen.push({ url: req.url, headers: req.headers, body })
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"linked":true}')
    })
  })
  thiefOrigin = await listen(thief)
  // 127.0.0.1 and localhost: two origins, as two hosts would be.
  partner = createServer((req, res) => {
    req.resume()
    res.writeHead(req.url?.endsWith('/301') ? 301 : 307, { Location: `${thiefOrigin.replace('127.0.0.1', 'localhost')}/steal${req.url}` }).end()
  })
  partnerBase = `${await listen(partner)}/api`
})
afterAll(() => {
  partner?.close()
  thief?.close()
})

it("never follows the partner backend's redirect to another origin with the partner token or the request's body", async () => {
  const http = createPartnerHttp({ base: partnerBase, token: 'pt_session_secret', fetch: (input, init) => fetch(input, init) })
  const answer = z.object({ linked: z.boolean() })
  const outcomes = await Promise.allSettled([
    http.post('/deposit/wallet/link', { message: 'signed sign-in', signature: '0xabc' }, answer),
    http.get('/limits', { currency: 'EUR' }, answer),
    http.post('/301', {}, answer),
  ])
  expect(stolen.map((s) => ({ url: s.url, authorization: s.headers.authorization, body: s.body }))).toEqual([])
  // Nor is another origin's answer taken for the partner's ("linked", here).
  expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected'])
})
