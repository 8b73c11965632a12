// The phone wallet's control API, for a person (curl) or a test, on loopback. Like the sandbox's
// own controls it answers no web page but a loopback one: a page elsewhere could otherwise approve
// a transaction with a simple cross-origin POST.
//   GET  /state                      mode, account, chains, sessions, what is pending, what was answered
//   POST /pair       {uri}           pair from the dapp's wc: URI
//   POST /mode       {mode}          'hold' | 'auto-approve' | 'auto-reject'
//   POST /chains     {approve}       the chains new sessions are approved for ([ids], or null: all); the
//                                    others a dapp adds by wallet_addEthereumChain
//   POST /approve    {id?}           the pending proposal or request with that id (the oldest without one)
//   POST /reject     {id?, code?, message?}   (default 5000 for a proposal, 4001 for a request)
//   POST /disconnect {topic?}        one session, or every one
//   GET  /relay                      what the relay received so far (given `relay`): each method's count,
//                                    in all and from the phone wallet's own client; a test reads it before
//                                    and after a flow to count the flow's requests
import { createServer } from 'node:http'
import { HttpError, readJson, send, sendError } from '../http.mjs'
import { isLoopbackOrigin } from '../server.mjs'

export async function servePhoneControl(phone, { port = 0, host = '127.0.0.1', relay } = {}) {
  const routes = {
    'GET /state': () => phone.state(),
    'GET /relay': async () => {
      if (!relay) throw new HttpError(404, 'not_found', 'GET /relay: no relay given to this control')
      const phoneClient = await phone.client.core.crypto.getClientId()
      return { seen: Object.fromEntries(relay.seen), phone: Object.fromEntries(relay.seenBy.get(phoneClient) ?? []) }
    },
    'POST /pair': async ({ uri }) => {
      if (typeof uri !== 'string' || !uri.startsWith('wc:')) throw new HttpError(400, 'invalid_request', 'uri: a wc: URI')
      await phone.pair(uri)
      return { ok: true }
    },
    'POST /mode': ({ mode }) => (phone.setMode(mode), { ok: true, mode }),
    'POST /chains': ({ approve = null }) => (phone.approveChains(approve), { ok: true, approve: phone.state().approve }),
    'POST /approve': async ({ id }) => ({ ok: true, result: (await phone.approve(id)) ?? null }),
    'POST /reject': async ({ id, code, message }) => {
      await phone.reject(id, code === undefined ? undefined : { code: Number(code), message: message ?? 'Rejected.' })
      return { ok: true }
    },
    'POST /disconnect': async ({ topic }) => {
      const topics = topic ? [topic] : phone.state().sessions.map((s) => s.topic)
      for (const each of topics) await phone.disconnect(each)
      return { ok: true, disconnected: topics }
    },
  }
  const server = createServer(async (req, res) => {
    try {
      if (req.headers.origin !== undefined && !isLoopbackOrigin(req.headers.origin))
        throw new HttpError(403, 'permission_denied', 'origin: the phone wallet answers loopback pages only')
      const route = routes[`${req.method} ${new URL(req.url ?? '/', 'http://phone.local').pathname}`]
      if (!route) throw new HttpError(404, 'not_found', `${req.method} ${req.url}: no such control`)
      send(res, 200, await route(req.method === 'POST' ? ((await readJson(req)) ?? {}) : {}))
    } catch (error) {
      if (error instanceof HttpError) return sendError(res, error)
      // Nothing pending, an unknown id or mode: the caller's; a failed answer (a reverted transaction): the wallet's.
      sendError(
        res,
        error instanceof RangeError
          ? new HttpError(400, 'invalid_request', error.message)
          : new HttpError(500, 'wallet_error', error.shortMessage ?? error.message),
      )
    }
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  return {
    url: `http://${host}:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
