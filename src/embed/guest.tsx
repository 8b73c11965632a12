// The iframe's page: the partner's entry from the registry inlined in this page, and a parent
// among the entry's registered `parentOrigins` only. The frame finds its parent by posting a hello
// to each registered origin, each with that exact targetOrigin (never "*"); the browser delivers
// it only where the origin matches. Messages from any other origin or window are ignored.
import { readRegistry } from '../config/link'
import { readPageLink } from '../config/pageLink'
import type { applyUpdate } from './liveUpdate'
import { mountLinkProblem, mountWidget } from './widgetMount'
import { GUEST, type GuestMessage, VERSION, type WidgetEvent, isHostMessage } from '../config/protocol'

const framed = window.parent !== window

/**
 * What the frame keeps for a parent that has not said hello yet: every message in order, the latest
 * height only, and past `limit` the newest (the oldest go first).
 */
export function keep(queue: readonly GuestMessage[], message: GuestMessage, limit = 500): GuestMessage[] {
  const kept = message.kind === 'resize' ? queue.filter((m) => m.kind !== 'resize') : [...queue]
  kept.push(message)
  return kept.slice(-limit)
}

/** The origins the parent may be: the registered ones, narrowed by the link and by the browser. */
export function candidateOrigins(registered: readonly string[], linkParent: unknown, ancestors: readonly string[] | undefined): string[] {
  let origins = [...registered]
  if (typeof linkParent === 'string') origins = origins.filter((o) => o === linkParent)
  // Where the browser tells us who frames us, that origin must be a registered one.
  if (ancestors && ancestors.length > 0) origins = origins.filter((o) => o === ancestors[0])
  return origins
}

/**
 * update() in the frame: the parent's `update`, `theme` and `authCode` messages, applied in the order
 * they came. Its code is the partner pages' entry's (mount.tsx exports liveUpdate.ts's), fetched with
 * the first such message, not with this page: most parents send none, and one chunk shared by both
 * entries would be one more file in every script-tag load. A fetch that failed is tried again with
 * the next message.
 */
let updates: Promise<typeof applyUpdate> | undefined
const updateLater: typeof applyUpdate = (services, options, emit) => {
  updates ??= import('./mount').then(({ applyUpdate }) => applyUpdate)
  updates.then(
    (apply) => apply(services, options, emit),
    (error) => {
      updates = undefined
      console.error('[stablecoin-widget] update: its code did not load; send it again', error)
    },
  )
}

async function start(root: HTMLElement) {
  const link = await readPageLink(readRegistry(document))
  const ancestors = location.ancestorOrigins ? Array.from(location.ancestorOrigins) : undefined
  const entry = link.entry
  const linkParent = link.ok ? link.options.parentOrigin : (new URLSearchParams(location.search).get('parentOrigin') ?? undefined)
  const origins = entry ? candidateOrigins(entry.parentOrigins, linkParent, ancestors) : []
  // Nothing is said until the parent has said hello (in answer to ours, or first: a parent whose
  // script came after this page, such as the loader adopting a declared frame): until then it is
  // kept (keep()), so a parent that listens late still hears the events in order.
  let parent: string | undefined
  let queue: GuestMessage[] = []

  const post = (message: GuestMessage) => {
    if (!framed) return
    if (parent) window.parent.postMessage(message, parent)
    else if (origins.length > 0) queue = keep(queue, message)
  }
  // The hello: to each registered origin with that exact targetOrigin; only the real parent hears it.
  for (const origin of framed ? origins : []) window.parent.postMessage({ source: GUEST, version: VERSION, kind: 'hello' } satisfies GuestMessage, origin)

  const emit = (name: WidgetEvent['name'], payload: unknown) =>
    post({ source: GUEST, version: VERSION, kind: 'event', event: { name, payload } as WidgetEvent })
  // Listening before anything is mounted: a refused link's error event reaches the parent too, once
  // it has said hello.
  let widget: ReturnType<typeof mountWidget> | undefined
  let report = () => {}
  window.addEventListener('message', (event) => {
    if (!framed || event.source !== window.parent || !origins.includes(event.origin) || !isHostMessage(event.data)) return
    if (!parent) {
      parent = event.origin
      for (const message of queue.splice(0)) window.parent.postMessage(message, parent)
    }
    if (event.origin !== parent || !widget) return
    const message = event.data
    // Another hello (a parent's script greeting both at once and on load): the height once more.
    if (message.kind === 'hello') report()
    else if (message.kind === 'update') widget.update(message.options)
    else if (message.kind === 'theme') widget.update({ theme: message.theme, brand: message.brand })
    else if (message.kind === 'authCode') widget.update({ authCode: message.code })
  })
  if (!link.ok) {
    mountLinkProblem(root, link, emit, new URLSearchParams(location.search).get('locale') ?? navigator.language)
    return
  }
  widget = mountWidget(root, link.options, { shadow: false, ownsPage: true, closable: framed, history: !framed, update: updateLater, emit })
  report = () => post({ source: GUEST, version: VERSION, kind: 'resize', height: document.documentElement.scrollHeight })
  new ResizeObserver(report).observe(document.body)
  report()
}

const root = document.getElementById('app')
if (root) void start(root)
