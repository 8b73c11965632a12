// The iframe's page: the widget as a page of its own, reporting to the parent at `parentOrigin`
// only (never "*"), and taking commands only from that origin and that window.
import { optionsFromParams } from '../config/params'
import { mountWidget } from './mount'
import { GUEST, type GuestMessage, VERSION, type WidgetEvent, isHostMessage } from './protocol'

const root = document.getElementById('app')
const options = optionsFromParams(new URLSearchParams(location.search))
const parentOrigin = typeof options.parentOrigin === 'string' && /^https?:\/\/[^/]+$/.test(options.parentOrigin) ? options.parentOrigin : undefined
const framed = window.parent !== window

function post(message: GuestMessage) {
  if (parentOrigin && framed) window.parent.postMessage(message, parentOrigin)
}

if (root) {
  const widget = mountWidget(root, options, {
    shadow: false,
    ownsPage: true,
    closable: framed,
    emit: (name, payload) => post({ source: GUEST, version: VERSION, kind: 'event', event: { name, payload } as WidgetEvent }),
  })
  window.addEventListener('message', (event) => {
    if (!parentOrigin || event.origin !== parentOrigin || event.source !== window.parent || !isHostMessage(event.data)) return
    const message = event.data
    if (message.kind === 'update') widget.update(message.options)
    else if (message.kind === 'theme') widget.update({ theme: message.theme, brand: message.brand })
    else widget.update({ authCode: message.code })
  })
  const report = () => post({ source: GUEST, version: VERSION, kind: 'resize', height: document.documentElement.scrollHeight })
  new ResizeObserver(report).observe(document.body)
  report()
}
