// WalletConnect in the sandbox, offline: the local relay, and the phone wallet on it with its
// control API. chains: the stack's [{ id, rpcUrl }]. Port 0 picks a free one.
import { servePhoneControl } from './phoneControl.mjs'
import { startPhoneWallet } from './phoneWallet.mjs'
import { startRelay } from './relay.mjs'

export async function startWalletConnect({ relayPort = 0, phonePort = 0, chains, mode = 'hold' }) {
  const relay = await startRelay({ port: relayPort })
  let phone
  let control
  const close = async () => {
    await control?.close()
    await phone?.close()
    await relay.close()
  }
  try {
    phone = await startPhoneWallet({ relayUrl: relay.url, chains, mode })
    control = await servePhoneControl(phone, { port: phonePort, relay })
  } catch (error) {
    await close()
    throw error
  }
  return { relayUrl: relay.url, phoneUrl: control.url, phone, relay, close }
}
