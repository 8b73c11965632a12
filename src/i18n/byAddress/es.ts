// Paying by address in es: every key of its English part (the catalogs test checks).
import type { ByAddressKey } from './en'

export const byAddressEs: Record<ByAddressKey, string> = {
  'byAddress.heading': 'Enviar desde otra wallet o un exchange',
  'byAddress.intro':
    'Envía exactamente el importe que se muestra a continuación desde cualquier wallet o cuenta de exchange. Vigilamos la cadena y seguimos el depósito en cuanto llegue tu transferencia.',
  'byAddress.receiver': 'Tu dirección para recibir {token} en {chain}',
  'byAddress.receiverHint': 'El depósito se entrega en esta dirección.',
  'byAddress.receiverFixed': 'Se entrega como {token} en {chain} a {address}, según lo fijó el sitio.',
  'byAddress.receiverInvalid': 'Introduce una dirección: 0x seguido de 40 caracteres hexadecimales.',
  'byAddress.receiverSite': 'El depósito se paga a este sitio, no a una dirección tuya, así que no se pide ninguna: cuenta como tu depósito en tu cuenta aquí.',
  'byAddress.refund':
    'Si el depósito caduca, el servicio de enrutamiento lo reembolsa automáticamente, pero no podemos prometer adónde va el reembolso: es posible que un exchange no lo abone en tu cuenta. Guarda tu transacción y contacta con la tienda indicándola si el reembolso no te llega.',
  'byAddress.kit':
    'Este sitio asigna la dirección de depósito a la cuenta con la que has iniciado sesión en él y la guarda como tuya: una transferencia de exactamente el importe indicado a esa dirección cuenta como tu depósito, venga de la wallet o el exchange que sea.',
  'byAddress.kitWatch':
    'Esta dirección se asignó a tu cuenta en este sitio: una transferencia de exactamente este importe a ella cuenta aquí como tu depósito, desde cualquier wallet o exchange. Si tu exchange descuenta su comisión del importe, súmala para que llegue exactamente este importe.',
  'byAddress.submit': 'Mostrar la dirección',
  'byAddress.loading': 'Obteniendo la dirección de depósito…',
  'byAddress.connectInstead': 'Conectar una wallet en su lugar',
  'byAddress.refused.approval':
    'Este precio necesita una aprobación de la wallet que paga, así que no se puede pagar con una transferencia simple. No se envió nada. Conecta una wallet para pagar.',
  'byAddress.refused.call':
    'Este precio necesita una llamada a un contrato desde la wallet que paga, no una transferencia simple, así que no se puede pagar desde otra wallet o un exchange. No se envió nada. Conecta una wallet para pagar.',
  'byAddress.refused.amount': 'La transferencia de este precio no es exactamente el importe que pediste, así que no se ofrece. No se envió nada.',
  'byAddress.refused.chain': 'Este precio es para otra red distinta de la que elegiste, así que no se ofrece. No se envió nada.',
  'byAddress.refused.spent':
    'El servicio dio una dirección que ya se ofreció aquí una vez. Una dirección nunca se ofrece dos veces: inténtalo más tarde o conecta una wallet.',
  'byAddress.refused.unreadable':
    'Esta página no puede leer la red para ver llegar tu transferencia, así que aquí no se ofrece el pago a una dirección. Conecta una wallet en su lugar.',
  'byAddress.sendHeading': 'Envía exactamente {amount} {token}',
  'byAddress.amount': 'Importe',
  'byAddress.token': 'Contrato del token {token}',
  'byAddress.chain': 'Red',
  'byAddress.address': 'Dirección de depósito',
  'byAddress.exact':
    'Una sola transferencia de exactamente este importe en {token}, solo en {chain}. Otro importe u otro token no se siguen aquí, ni una transferencia en otra red, que quizá no pueda recuperarse.',
  'byAddress.qr': 'Código QR de esta solicitud de pago para una app de wallet: {amount} {token} en {chain} a la dirección de depósito',
  'byAddress.request': 'Solicitud de pago (EIP-681)',
  'byAddress.expiresIn': 'Envía en menos de {time}: el precio se mantiene hasta las {at}.',
  'byAddress.expired':
    'Este precio caducó a las {at}: no envíes nada a esta dirección ahora. Si enviaste antes, deja esta página abierta: seguimos vigilando tu transferencia.',
  'byAddress.newQuote': 'No envié nada: obtener un nuevo precio',
  'byAddress.watching': 'Vigilando {chain} a la espera de tu transferencia… Puedes salir y volver a esta página: la vigilancia continúa aquí.',
  'byAddress.stray':
    'Llegó a esta dirección una transferencia de {amount} {token} (transacción {hash}). No es el importe pedido, así que no se sigue aquí: contacta con el sitio indicando esta transacción.',
  'byAddress.strayToken':
    'Llegó a esta dirección una transferencia de otro token ({token}) (transacción {hash}). No se sigue aquí: contacta con el sitio indicando esta transacción.',
  'walletApps.heading': 'Abrir en tu app de wallet',
  'walletApps.body': 'Abre esta misma página en el navegador de tu app de wallet, donde tu wallet se conecta.',
  'walletApps.carries':
    'El enlace lleva la dirección de esta página tal cual: el sitio, el importe y la firma del sitio, que se vuelve a comprobar allí. Nunca lleva un token de inicio de sesión: inicia sesión allí si se te pide.',
  'walletApps.open': 'Abrir en {wallet}',
}
