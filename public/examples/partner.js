// The partner's own script (external, so the page runs under a CSP without 'unsafe-inline').
// Reads its settings from <meta name="widget-config"> and mounts the widget the way the page says.
const config = JSON.parse(document.querySelector('meta[name="widget-config"]').content)
const mode = document.body.dataset.mode
const log = document.getElementById('log')
const events = []
window.widgetEvents = events
const record = (name) => (payload) => {
  events.push({ name, payload })
  log.textContent += `${name} ${JSON.stringify(payload)}\n`
}
const names = ['ready', 'screen', 'quote', 'submitted', 'status', 'complete', 'error', 'close']

function start() {
  const el = document.getElementById('widget')
  // Hosted mode: the page links to the widget's full page, which comes back here at the end.
  if (mode === 'hosted') {
    if (new URLSearchParams(location.search).get('returned')) log.textContent = 'Back from the hosted page: confirm the payment on your backend.\n'
    return
  }
  if (mode === 'script') window.widget = window.StablecoinWidget.mount(el, config)
  if (mode === 'iframe') window.widget = window.StablecoinWidget.iframe(el, config)
  if (mode === 'element' || mode === 'markup') {
    const widget = document.querySelector('stablecoin-widget, [data-stablecoin-widget]')
    // The custom element and the declared <div> mount themselves; their events are DOM events.
    window.widget = null
    widget.addEventListener('stablecoin-widget', (e) => record(e.detail.name)(e.detail.payload))
    return
  }
  for (const name of names) window.widget.on(name, record(name))
}

if (window.StablecoinWidget) start()
else document.getElementById('loader').addEventListener('load', start)
