// Paying by address in pt-BR: every key of its English part (the catalogs test checks).
import type { ByAddressKey } from './en'

export const byAddressPtBR: Record<ByAddressKey, string> = {
  'byAddress.heading': 'Enviar de outra carteira ou de uma corretora',
  'byAddress.intro':
    'Envie exatamente o valor mostrado a seguir de qualquer carteira ou conta de corretora. Observamos a rede e acompanhamos o depósito assim que sua transferência chegar.',
  'byAddress.receiver': 'Seu endereço para receber {token} na {chain}',
  'byAddress.receiverHint': 'O depósito é entregue neste endereço.',
  'byAddress.receiverFixed': 'Entregue como {token} na {chain} para {address}, como o site definiu.',
  'byAddress.receiverInvalid': 'Digite um endereço: 0x seguido de 40 caracteres hexadecimais.',
  'byAddress.receiverSite': 'O depósito é pago a este site, não a um endereço seu, por isso nenhum é pedido: ele conta como seu depósito na sua conta aqui.',
  'byAddress.refund':
    'Se o depósito expirar, o serviço de roteamento o reembolsa automaticamente, mas não podemos prometer para onde vai o reembolso: uma corretora pode não creditá-lo na sua conta. Guarde sua transação e fale com a loja informando-a se o reembolso não chegar até você.',
  'byAddress.kit':
    'Este site atribui o endereço de depósito à conta com que você está conectado nele e o guarda como seu: uma transferência de exatamente o valor mostrado para esse endereço conta como o seu depósito, venha de qualquer carteira ou corretora.',
  'byAddress.kitWatch':
    'Este endereço foi atribuído à sua conta neste site: uma transferência de exatamente este valor para ele conta aqui como o seu depósito, de qualquer carteira ou corretora. Se a sua corretora desconta a taxa do valor, some-a para que chegue exatamente este valor.',
  'byAddress.submit': 'Mostrar o endereço',
  'byAddress.loading': 'Obtendo o endereço de depósito…',
  'byAddress.connectInstead': 'Conectar uma carteira em vez disso',
  'byAddress.refused.approval':
    'Este preço precisa de uma aprovação da carteira que paga, então não pode ser pago com uma transferência simples. Nada foi enviado. Conecte uma carteira para pagar.',
  'byAddress.refused.call':
    'Este preço precisa de uma chamada de contrato da carteira que paga, não de uma transferência simples, então não pode ser pago de outra carteira ou de uma corretora. Nada foi enviado. Conecte uma carteira para pagar.',
  'byAddress.refused.amount': 'A transferência deste preço não é exatamente o valor que você pediu, então não é oferecida. Nada foi enviado.',
  'byAddress.refused.chain': 'Este preço é para outra rede, diferente da que você escolheu, então não é oferecido. Nada foi enviado.',
  'byAddress.refused.spent':
    'O serviço informou um endereço que já foi oferecido aqui uma vez. Um endereço nunca é oferecido duas vezes: tente mais tarde ou conecte uma carteira.',
  'byAddress.refused.unreadable':
    'Esta página não consegue ler a rede para ver sua transferência chegar, então o pagamento por endereço não é oferecido aqui. Conecte uma carteira em vez disso.',
  'byAddress.sendHeading': 'Envie exatamente {amount} {token}',
  'byAddress.amount': 'Valor',
  'byAddress.token': 'Contrato do token {token}',
  'byAddress.chain': 'Rede',
  'byAddress.address': 'Endereço de depósito',
  'byAddress.exact':
    'Uma única transferência de exatamente este valor em {token}, somente na {chain}. Outro valor ou outro token não é acompanhado aqui, nem uma transferência em outra rede, que talvez não possa ser recuperada.',
  'byAddress.qr': 'QR code desta solicitação de pagamento para um app de carteira: {amount} {token} na {chain} para o endereço de depósito',
  'byAddress.request': 'Solicitação de pagamento (EIP-681)',
  'byAddress.expiresIn': 'Envie em até {time}: o preço vale até {at}.',
  'byAddress.expired':
    'Este preço expirou às {at}: não envie nada para este endereço agora. Se você enviou antes, mantenha esta página aberta: continuamos observando sua transferência.',
  'byAddress.newQuote': 'Não enviei: obter um novo preço',
  'byAddress.watching': 'Observando a {chain} à espera da sua transferência… Você pode sair e voltar a esta página: a observação continua aqui.',
  'byAddress.stray':
    'Uma transferência de {amount} {token} chegou a este endereço (transação {hash}). Não é o valor pedido, então não é acompanhada aqui: entre em contato com o site informando esta transação.',
  'byAddress.strayToken':
    'Uma transferência de outro token ({token}) chegou a este endereço (transação {hash}). Não é acompanhada aqui: entre em contato com o site informando esta transação.',
  'walletApps.heading': 'Abrir no app da sua carteira',
  'walletApps.body': 'Abre esta mesma página no navegador do app da sua carteira, onde sua carteira se conecta.',
  'walletApps.carries':
    'O link leva o endereço desta página como está: o site, o valor e a assinatura do site, verificada de novo lá. Ele nunca leva um token de login: entre lá se for pedido.',
  'walletApps.open': 'Abrir em {wallet}',
}
