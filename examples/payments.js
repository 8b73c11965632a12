// The partner's Payments page: asks the partner's own server for the signed-in user's payments
// every second and redraws the table when they change. What the server says is set as text only.
const session = document.querySelector('meta[name="demo-session"]').content
const KINDS = { card: 'Card purchase', bankDeposit: 'Bank deposit', payout: 'Bank payout', cardPayout: 'Card payout', deposit: 'Crypto deposit' }
const seenConfirmed = new Set()
let shown = ''
let first = true
let failing = false

const announce = (text) => {
  document.getElementById('updates').textContent = text
}

function row(payment) {
  const tr = document.createElement('tr')
  const cells = [
    KINDS[payment.kind] ?? String(payment.kind),
    String(payment.id),
    payment.amount && payment.currency ? `${payment.amount} ${payment.currency}` : '—',
    payment.status ?? 'not known yet',
    payment.confirmed ? 'confirmed' : payment.final ? 'no' : 'not yet',
  ]
  for (const text of cells) {
    const td = document.createElement('td')
    td.textContent = text
    tr.append(td)
  }
  if (payment.confirmed) tr.lastChild.className = 'confirmed'
  return tr
}

function draw(payments) {
  const json = JSON.stringify(payments)
  if (json === shown) return
  shown = json
  document.getElementById('payments').replaceChildren(...payments.map(row))
  document.getElementById('empty').hidden = payments.length > 0
  const newly = payments.filter((p) => p.confirmed && !seenConfirmed.has(`${p.kind} ${p.id}`))
  for (const p of newly) seenConfirmed.add(`${p.kind} ${p.id}`)
  // The first list is the page itself; later confirmations are announced (a polite live region).
  if (!first && newly.length) announce(newly.map((p) => `${KINDS[p.kind] ?? p.kind} ${p.id} is confirmed.`).join(' '))
  first = false
}

async function refresh() {
  try {
    const res = await fetch('/partner-demo/payments', { headers: { Authorization: `Bearer ${session}` }, cache: 'no-store' })
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
    const { payments } = await res.json()
    draw(Array.isArray(payments) ? payments : [])
    if (failing) announce('')
    failing = false
  } catch {
    if (!failing) announce("The shop's server did not answer; trying again.")
    failing = true
  }
  setTimeout(refresh, 1000)
}

refresh()
