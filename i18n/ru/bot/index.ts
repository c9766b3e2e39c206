import type { BaseTranslation } from '../../i18n-types';

/**
 * The bot's messages, in Russian, the base locale: only the server loads this
 * namespace, so none of it reaches the customer's app. Values in `{…}` arrive HTML-escaped; the
 * tags here are Telegram's HTML (<b>, <code>, <a>).
 */
const ru_bot: BaseTranslation = {
  start: {
    greeting:
      'Здравствуйте, {name:string}! Здесь можно купить и продать USDT и USDC за рубли: переводом на карту, по счёту или наличными в офисе. Я пришлю сообщение, когда по вашему заказу что-то произойдёт.',
    order: 'Заказ №{number:string} откроется по кнопке ниже.',
    openApp: 'Открыть обменник',
    help: 'Вопрос по заказу? Напишите в поддержку: {url:string}. Укажите номер заказа: он есть в каждом сообщении и в приложении.',
    support: 'Написать в поддержку',
    chatId:
      'Идентификатор этого чата: <code>{id:string}</code>. Чтобы бот присылал сюда оповещения операторам, запустите сервер с OPERATOR_CHAT_ID={id:string}.',
  },
  buttons: {
    openOrder: 'Открыть заказ',
    openChat: 'Открыть чат заказа',
    openConsole: 'Открыть в консоли',
    openQueue: 'Открыть очередь',
    support: 'Написать в поддержку',
  },
  customer: {
    requisitesCard:
      'Заказ №{number:string}: реквизиты готовы.\nПереведите <b>{total:string}</b> на карту <code>{card:string}</code> ({bank:string}, {holder:string}) до <b>{deadline:string}</b> по Москве.\nПосле перевода нажмите «Я оплатил» в приложении и приложите чек.',
    requisitesBank:
      'Заказ №{number:string}: реквизиты для перевода <b>{total:string}</b> по счёту готовы, они в приложении. Оплатите до <b>{deadline:string}</b> по Москве, затем приложите платёжное поручение.',
    officeReady:
      'Заказ №{number:string}: офис ждёт вас.\nКод брони: <b>{code:string}</b>\n{city:string}, {address:string}\nЧасы работы: {hours:string}\nКурс и наличные зарезервированы до <b>{deadline:string}</b> по Москве. Назовите код в офисе.',
    paymentConfirmed:
      'Заказ №{number:string}: оплата <b>{total:string}</b> получена. Отправляем <b>{amount:string}</b> на ваш кошелёк в сети {network:string}.',
    txConfirmed:
      'Заказ №{number:string}: ваша транзакция подтверждена. Переводим <b>{total:string}</b> на карту •••• {last4:string}.',
    completedCrypto:
      'Заказ №{number:string} выполнен: <b>{amount:string}</b> отправлены на ваш кошелёк.\nТранзакция: <a href="{url:string}">{hash:string}</a>',
    completedOffice: 'Заказ №{number:string} выполнен: <b>{amount:string}</b> ваши. Спасибо!',
    completedPayout:
      'Заказ №{number:string} выполнен: <b>{total:string}</b> отправлены на карту •••• {last4:string}.',
    reminderPay:
      'Заказ №{number:string}: осталось 5 минут, чтобы перевести <b>{total:string}</b> (до {deadline:string} по Москве). Уже перевели? Нажмите «Я оплатил» в приложении, иначе заказ отменится.',
    depositRequested:
      'Заказ №{number:string}: отправьте ровно <b>{amount:string}</b> в сети {network:string}, одним переводом, на адрес\n<code>{address:string}</code>\nдо <b>{deadline:string}</b> по Москве. По последним цифрам мы узнаём ваш перевод: любая другая сумма ждёт оператора. Затем укажите хеш транзакции в приложении.',
    reminderSend:
      'Заказ №{number:string}: осталось 5 минут, чтобы отправить <b>{amount:string}</b> в сети {network:string} (до {deadline:string} по Москве). Уже отправили? Укажите хеш транзакции в приложении.',
    appealReceived:
      '⚖️ Заказ №{number:string}: апелляция принята. Причина: {reason:string}\n\n{next:string}',
    appealDecided:
      '⚖️ Заказ №{number:string}: решение по апелляции.\n\n{decision:string}\n\n{outcome:string}',
    operatorMessage:
      '💬 Заказ №{number:string}: обменник пишет в чате заказа.\n\n{message:string}\n\nОбменник пишет только в чате заказа и в этом боте, всегда с кодом проверки заказа, и никогда не просит платить вне реквизитов и суммы заказа.',
  },
  operators: {
    appealOpened:
      '⚖️ Заказ №{number:string}, {kind:string}: клиент открыл апелляцию.\nПричина: {reason:string}\n\n{text:string}\n\nКлиент: {customer:string}\nРешает старший оператор в консоли.',
    newOrder:
      '🆕 Новый заказ №{number:string}: {kind:string}\n<b>{amount:string}</b> за <b>{total:string}</b>\nКлиент: {customer:string}',
    receiptUploaded:
      '🧾 Заказ №{number:string}: клиент приложил чек. Проверьте оплату <b>{total:string}</b>.\nКлиент: {customer:string}',
    txSubmitted:
      '🔗 Заказ №{number:string}: клиент отправил <b>{amount:string}</b> в сети {network:string}.\nХеш: <code>{hash:string}</code>\nКлиент: {customer:string}',
    flagPaidLate:
      '⚠️ Заказ №{number:string}: клиент оплатил, но срок прошёл. Заказ ждёт решения оператора.\nКлиент: {customer:string}',
    flagReusedReceipt:
      '⚠️ Заказ №{number:string}: тот же чек приложен к заказам {others:string}. Проверьте оплату.\nКлиент: {customer:string}',
    flagWaiting:
      '⏰ Заказ №{number:string} ждёт оператора больше 10 минут: {kind:string}, <b>{total:string}</b>.\nКлиент: {customer:string}',
    customerMessage:
      '💬 Заказ №{number:string}: клиент пишет в чате заказа.\n\n{message:string}\n\nКлиент: {customer:string}',
    unmatchedDeposit:
      '💰 Перевод на наш адрес депозита в сети {network:string}, который не подошёл ни к одному заказу: <b>{amount:string}</b>\nОтправитель (целиком, сверьте каждый символ): <code>{sender:string}</code>\nХеш: <code>{hash:string}</code>\nПривяжите его к заказу в консоли или урегулируйте с отправителем.',
    rateUnavailable:
      '⏸ {pair:string} не котируется: слишком мало свежих источников согласны, клиенты не могут создать заказ.\n{sources:string}',
    rateBack: '▶️ {pair:string} снова котируется по {base:string}.\n{sources:string}',
    rateJump:
      '⚡️ {pair:string} скачок {change:string}: с {from:string} до {to:string}. Пара не котируется, пока оператор не подтвердит новый курс в консоли или источники не продолжат на нём сходиться.\n{sources:string}',
    rateFixEnded:
      '⏱ Фиксированный курс {fixed:string} для {pair:string} закончился: пара снова следует рынку, по {base:string}.',
    rateFixEndedUnquoted:
      '⏱ Фиксированный курс {fixed:string} для {pair:string} закончился, а свежих источников слишком мало: клиенты не могут создать заказ.\n{sources:string}',
    rateSourceStates: {
      fresh: 'свежий',
      stale: 'устарел',
      outlier: 'исключён: далеко от остальных',
    },
    scanBehind:
      '🐢 Сканирование адреса депозита в сети {network:string} отстаёт на <b>{blocks:string}</b> финальных блоков: депозиты без хеша видны с опозданием. Проверьте узел (CHAIN_RPC_{network:string}).',
    flagChainDeposit:
      '⛓ Заказ №{number:string}: проверка в сети ждёт оператора: {problem:string}\nХеш в сети {network:string}: <code>{hash:string}</code>\nКлиент: {customer:string}',
    chainFlags: {
      failed: 'транзакция не прошла.',
      wrong_token: 'она переводит другой токен, не официальный контракт {coin:string}.',
      wrong_recipient: 'она не на наш адрес депозита.',
      underpaid: 'она переводит на {difference:string} меньше суммы заказа.',
      before_order: 'она сделана раньше, чем создан заказ.',
      already_used: 'этот перевод уже указан как оплата другого заказа.',
      reorged:
        'перевод исчез из сети, не набрав подтверждений (блок реорганизован); его ищут снова.',
      not_found: 'транзакция не найдена в сети за время поиска.',
      unreadable:
        'узел этой сети не отвечал всё время поиска (недоступен или отказывает); транзакцию ищут снова.',
      overpaid:
        'депозит подтверждён, но переводит на {difference:string} больше суммы заказа: урегулируйте разницу.',
      payout_wrong:
        'выплата, найденная в сети, не оплачивает этот заказ как должна: проверьте, что клиент её получил.',
      payout_not_found: 'выплата не найдена в сети за время поиска: проверьте, что она отправлена.',
      payout_reorged:
        'выплата пропала из сети до нужного числа подтверждений (реорганизация блоков); её ищут снова.',
      payout_unreadable:
        'узел этой сети не отвечал всё время поиска (недоступен или отказывает); выплату ищут снова.',
      wrong_amount:
        'она переводит {amount:string}, а не точную сумму заказа: сеть её не подтверждает, решает оператор.',
      foreign_amount:
        'она переводит {amount:string}, точную сумму заказа {other:string} другого клиента: похоже, клиент указал чужой перевод. Заказ {other:string} ждёт своего депозита как обычно.',
      late_deposit:
        'заказ уже завершён, но пришла его точная сумма {amount:string} (хеш <code>{hash:string}</code>): продавец опоздал, урегулируйте с ним.',
      other_hash:
        'пришла точная сумма заказа {amount:string}, но под другим хешем (<code>{hash:string}</code>), чем указал клиент: проверьте, чей это перевод.',
      same_hash:
        'тот же хеш указан и для заказа {other:string}: прежде чем подтверждать, проверьте, какой заказ он оплачивает.',
    },
    kinds: {
      BUY_P2P: 'покупка, перевод на карту',
      BUY_BANK_ACCOUNT: 'покупка, перевод по счёту',
      BUY_OFFICE: 'покупка, наличные в офисе',
      SELL_P2P: 'продажа, выплата на карту',
      SELL_BANK_ACCOUNT: 'продажа, выплата по счёту',
      SELL_OFFICE: 'продажа в офисе',
    },
  },
  chat: {
    file: '📎 Файл: {name:string}',
  },
  /**
   * The bot's answers to a reply to its message about an order: passed on to the order's chat
   * (to the customer's private chat, and to the operators' chat), or why not.
   */
  replies: {
    landedFromCustomer:
      '✅ Сообщение передано в чат заказа №{number:string}. Ответ придёт сюда и в чат заказа в приложении.',
    landedFromOperator: '✅ Ответ передан клиенту в чат заказа №{number:string}.',
    notAboutOrder:
      '⚠️ Сообщение никуда не передано: это сообщение бота не о заказе. Ответьте на сообщение бота о заказе или напишите в чате заказа.',
    notOperator:
      '⚠️ Ответ не передан клиенту: писать клиентам отсюда могут только операторы из OPERATOR_IDS.',
    tooLong:
      '⚠️ Сообщение не передано в чат заказа: оно длиннее {max:string} знаков. Сократите его или разделите на несколько.',
    refused: '⚠️ Сообщение не передано в чат заказа.\n{reason:string}',
  },
  /**
   * The last line of every message about an order, to the customer and to operators alike: the
   * order's verification code, by which a customer tells the exchange from an impostor.
   */
  verificationCode: '🔐 Код проверки заказа: <b>{code:string}</b>',
  /**
   * A flood's summary in the operators' chat: `shown` is the count as written in the language
   * ("1 234"), `count` picks the plural.
   */
  summaries: {
    appeal_opened:
      '⚖️ {shown:string} {{count:апелляций открыто|апелляция открыта|апелляции открыто|апелляции открыто|апелляций открыто|апелляции открыто}}. Все они в начале очереди консоли.',
    new_order:
      '🆕 {shown:string} {{count:новых заказов|новый заказ|новых заказа|новых заказа|новых заказов|нового заказа}}. Все они в очереди консоли.',
    receipt_uploaded:
      '🧾 {shown:string} {{count:чеков приложено|чек приложен|чека приложено|чека приложено|чеков приложено|чека приложено}}: проверьте оплату. Все они в очереди консоли.',
    tx_submitted:
      '🔗 {shown:string} {{count:транзакций отправлено|транзакция отправлена|транзакции отправлено|транзакции отправлено|транзакций отправлено|транзакции отправлено}} клиентами. Все они в очереди консоли.',
    flag_paid_late:
      '⚠️ {shown:string} {{count:заказов оплачено|заказ оплачен|заказа оплачено|заказа оплачено|заказов оплачено|заказа оплачено}} после срока и {{count:ждут|ждёт|ждут|ждут|ждут|ждут}} решения оператора. Все они в очереди консоли.',
    flag_reused_receipt:
      '⚠️ {shown:string} {{count:заказов|заказ|заказа|заказа|заказов|заказа}} с чеком, приложенным и к другому заказу. Все они в очереди консоли.',
    flag_chain_deposit:
      '⛓ {shown:string} {{count:переводов|перевод|перевода|перевода|переводов|перевода}} после проверки в сети {{count:ждут|ждёт|ждут|ждут|ждут|ждут}} оператора. Все они в очереди консоли.',
    flag_waiting:
      '⏰ {shown:string} {{count:заказов ждут|заказ ждёт|заказа ждут|заказа ждут|заказов ждут|заказа ждут}} оператора больше 10 минут. Все они в очереди консоли.',
    customer_message:
      '💬 {shown:string} {{count:сообщений|сообщение|сообщения|сообщения|сообщений|сообщения}} от клиентов в чатах заказов. Все они в очереди консоли.',
    unmatched_deposit:
      '💰 {shown:string} {{count:переводов|перевод|перевода|перевода|переводов|перевода}} на адрес депозита, {{count:которые|который|которые|которые|которые|которые}} не подошли ни к одному заказу. Все они в очереди консоли.',
    scan_behind:
      '🐢 Сканирование адреса депозита отстаёт в {shown:string} {{count:сетях|сети|сетях|сетях|сетях|сетях}}. Проверьте узлы.',
    rate_unavailable:
      '⏸ Не котируются {shown:string} {{count:пар|пара|пары|пары|пар|пары}}: слишком мало свежих источников согласны.',
    rate_back: '▶️ Снова котируются {shown:string} {{count:пар|пара|пары|пары|пар|пары}}.',
    rate_jump:
      '⚡️ Скачок курса у {shown:string} {{count:пар|пары|пар|пар|пар|пар}}: не котируются, пока не подтвердят в консоли.',
    rate_fix_ended:
      '⏱ Закончился фиксированный курс у {shown:string} {{count:пар|пары|пар|пар|пар|пар}}.',
  },
};

export default ru_bot;
