// The partner's own script (external, so the page runs under a CSP without 'unsafe-inline').
// Reads its settings from <meta name="widget-config"> and mounts the widget the way the page says.
// It runs before the loader (a plain script above it): a widget declared in markup mounts as soon
// as the loader runs, so its events are heard on `document` (they bubble) from the start. On the
// declared-iframe page it is deferred, so that it does not hold the frame back; the frame keeps its
// events until the loader adopts it.
const config = JSON.parse(document.querySelector('meta[name="widget-config"]').content)
const mode = document.documentElement.dataset.mode
const events = []
window.widgetEvents = events
const record = (name) => (payload) => {
  events.push({ name, payload })
  const log = document.getElementById('log')
  if (log) log.textContent += `${name} ${JSON.stringify(payload)}\n`
}
const names = ['ready', 'screen', 'quote', 'submitted', 'status', 'complete', 'error', 'close']

if (mode === 'element' || mode === 'markup' || mode === 'frame') {
  // The custom element, the declared <div> and the declared <iframe> start by themselves; their
  // events are DOM events.
  document.addEventListener('stablecoin-widget', (e) => record(e.detail.name)(e.detail.payload))
}

function start() {
  const el = document.getElementById('widget')
  // Hosted mode: the page links to the widget's full page, which comes back here at the end.
  if (mode === 'hosted') {
    if (new URLSearchParams(location.search).get('returned'))
      document.getElementById('log').textContent = 'Back from the hosted page: confirm the payment on your backend.\n'
    return
  }
  // Element and markup modes have no handle: their events arrive as DOM events (above). A local
  // handle, because `window.widget` would otherwise be the element whose id is "widget".
  let handle
  if (mode === 'script') handle = window.StablecoinWidget.mount(el, config)
  if (mode === 'iframe') handle = window.StablecoinWidget.iframe(el, config)
  if (!handle) return
  window.widget = handle
  for (const name of names) handle.on(name, record(name))
}

document.addEventListener('DOMContentLoaded', () => {
  if (window.StablecoinWidget) start()
  else document.getElementById('loader').addEventListener('load', start)
})
