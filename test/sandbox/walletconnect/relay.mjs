// A local WalletConnect relay for the sandbox: JSON-RPC over one WebSocket per client, on loopback,
// answering what @walletconnect/core 2.25 sends (read from its relayer, subscriber and publisher,
// and sign-client's engine):
//
//   irn_subscribe       { topic }            → the subscription id; then pushes the topic's held messages
//   irn_batchSubscribe  { topics }           → the ids (the client resubscribes so after a reconnect)
//   irn_unsubscribe     { topic, id }        → true
//   irn_publish         { topic, message, ttl, tag?, prompt?, attestation? } → true
//   wc_proposeSession   { pairingTopic, sessionProposal, ttl, attestation?, … } → true: subscribes the
//                       dapp to the pairing topic (its connect() skips irn_subscribe) and publishes the proposal
//   wc_approveSession   { sessionTopic, pairingTopic, sessionProposalResponse, sessionSettlementRequest, ttl, … }
//                       → true: subscribes the wallet to the session topic (its approve() skips
//                       irn_subscribe), publishes the response on the pairing topic, the settlement on the session's
//
// and pushes `irn_subscription` { id, data: { topic, message, publishedAt, tag, attestation? } } to each
// subscriber, which acks it with a JSON-RPC result. Every message is held for its ttl (seconds) and
// pushed to a client that subscribes later, unless that client published it or acked it (a client is
// its JWT's `iss`, so a restarted client with the same storage is the same client). The relay pings
// every socket (in Node the client drops a socket that hears nothing for 35 s). Any other method
// (irn_batchPublish, irn_batchUnsubscribe, irn_batchFetchMessages: in RELAY_JSONRPC, not sent by
// 2.25) is answered -32601, so a client that starts using one shows it.
//
// Relay auth: the client puts a JWT (signed with its ed25519 client key) in the URL's `auth` query.
// It is decoded to name the client and NOT verified: the sandbox trusts whatever runs on loopback.
import { createHash, randomUUID } from 'node:crypto'
import { WebSocketServer } from 'ws'

const NO_METHOD = -32601

/** Starts the relay; `url` is what clients take as `relayUrl`. `now`: the clock the ttls are read on. */
export async function startRelay({ port = 0, host = '127.0.0.1', pingMs = 15_000, log = () => {}, now = Date.now } = {}) {
  const subscribers = new Map() // topic → Set of sockets
  const mailbox = new Map() // topic → [{ message, publishedAt, tag, attestation, expiresAt, from, acked: Set }]
  const unacked = new Map() // our irn_subscription id → { held, client }
  const seen = new Map() // method → count, for tests and the log
  const seenBy = new Map() // client → (method → count): what each client sent (the widget's, the phone's)
  let pushId = 0

  const subscriptionId = (topic, client) =>
    createHash('sha256')
      .update(topic + client)
      .digest('hex')

  function push(ws, topic, held) {
    if (held.from === ws.client || held.acked.has(ws.client)) return
    const id = `${now()}${String(++pushId).padStart(6, '0')}`
    unacked.set(id, { held, client: ws.client })
    const data = { topic, message: held.message, publishedAt: held.publishedAt, tag: held.tag, attestation: held.attestation }
    ws.send(JSON.stringify({ id, jsonrpc: '2.0', method: 'irn_subscription', params: { id: subscriptionId(topic, ws.client), data } }))
  }

  function subscribe(ws, topic) {
    if (!subscribers.has(topic)) subscribers.set(topic, new Set())
    subscribers.get(topic).add(ws)
    ws.topics.add(topic)
    // The held messages go out after the answer to the subscribe, as the hosted relay sends them.
    const held = live(topic)
    queueMicrotask(() => held.forEach((message) => ws.readyState === ws.OPEN && push(ws, topic, message)))
    return subscriptionId(topic, ws.client)
  }

  function unsubscribe(ws, topic) {
    subscribers.get(topic)?.delete(ws)
    ws.topics.delete(topic)
  }

  function live(topic) {
    const kept = (mailbox.get(topic) ?? []).filter((held) => held.expiresAt > now())
    if (kept.length) mailbox.set(topic, kept)
    else mailbox.delete(topic)
    return kept
  }

  function publish(from, { topic, message, ttl, tag, attestation }) {
    if (typeof topic !== 'string' || typeof message !== 'string') throw new RangeError('topic and message are required')
    const held = { message, publishedAt: now(), tag, attestation, expiresAt: now() + (Number(ttl) || 300) * 1000, from: from.client, acked: new Set() }
    mailbox.set(topic, [...live(topic), held])
    for (const ws of subscribers.get(topic) ?? []) push(ws, topic, held)
    return true
  }

  const methods = {
    irn_subscribe: (ws, p) => subscribe(ws, p.topic),
    irn_batchSubscribe: (ws, p) => p.topics.map((topic) => subscribe(ws, topic)),
    irn_unsubscribe: (ws, p) => (unsubscribe(ws, p.topic), true),
    irn_publish: (ws, p) => publish(ws, p),
    wc_proposeSession: (ws, p) => {
      subscribe(ws, p.pairingTopic)
      return publish(ws, { topic: p.pairingTopic, message: p.sessionProposal, ttl: p.ttl, tag: p.tag, attestation: p.attestation })
    },
    wc_approveSession: (ws, p) => {
      subscribe(ws, p.sessionTopic)
      publish(ws, { topic: p.pairingTopic, message: p.sessionProposalResponse, ttl: p.ttl })
      return publish(ws, { topic: p.sessionTopic, message: p.sessionSettlementRequest, ttl: p.ttl })
    },
  }

  function onMessage(ws, text) {
    let payload
    try {
      payload = JSON.parse(text)
    } catch {
      return ws.send(JSON.stringify({ id: null, jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }))
    }
    if (payload.method === undefined) {
      // An ack of one of our irn_subscription pushes.
      const pending = unacked.get(String(payload.id))
      if (pending && payload.result !== undefined) pending.held.acked.add(pending.client)
      unacked.delete(String(payload.id))
      return
    }
    seen.set(payload.method, (seen.get(payload.method) ?? 0) + 1)
    if (!seenBy.has(ws.client)) seenBy.set(ws.client, new Map())
    const mine = seenBy.get(ws.client)
    mine.set(payload.method, (mine.get(payload.method) ?? 0) + 1)
    log(`${payload.method} ${payload.params?.topic ?? payload.params?.pairingTopic ?? ''}`.trim())
    const method = methods[payload.method]
    const answer = (body) => ws.send(JSON.stringify({ id: payload.id, jsonrpc: '2.0', ...body }))
    if (!method) return answer({ error: { code: NO_METHOD, message: `${payload.method}: not answered by the sandbox relay` } })
    try {
      answer({ result: method(ws, payload.params ?? {}) })
    } catch (error) {
      answer({ error: { code: -32602, message: `${payload.method}: ${error.message}` } })
    }
  }

  const wss = new WebSocketServer({ port, host })
  await new Promise((resolve, reject) => {
    wss.once('listening', resolve)
    wss.once('error', reject)
  })
  wss.on('connection', (ws, req) => {
    ws.client = clientOf(new URL(req.url ?? '/', 'ws://relay.local').searchParams.get('auth'))
    ws.topics = new Set()
    ws.on('message', (data) => onMessage(ws, String(data)))
    ws.on('close', () => ws.topics.forEach((topic) => unsubscribe(ws, topic)))
  })
  const pinger = setInterval(() => wss.clients.forEach((ws) => ws.ping()), pingMs)
  pinger.unref()
  const url = `ws://${host}:${wss.address().port}`
  return {
    url,
    port: wss.address().port,
    /** method → how many times a client sent it. */
    seen,
    /** client (its JWT's `iss`) → method → how many times that client sent it. */
    seenBy,
    /** How many messages are held for a topic (live ones). */
    held: (topic) => live(topic).length,
    close: () =>
      new Promise((resolve) => {
        clearInterval(pinger)
        wss.clients.forEach((ws) => ws.terminate())
        wss.close(() => resolve())
      }),
  }
}

/** The JWT's `iss` (did:key of the client's ed25519 key), decoded and not verified; a fresh name without one. */
function clientOf(jwt) {
  try {
    const payload = JSON.parse(Buffer.from(String(jwt).split('.')[1], 'base64url').toString('utf8'))
    if (typeof payload.iss === 'string') return payload.iss
  } catch {}
  return `anonymous:${randomUUID()}`
}
