import type { BaseTranslation } from '../../i18n-types';

/**
 * The operators' console (namespace `console`), Russian, the base locale. A namespace of its own
 * so that customers never download it: the console's route loads it (`loadNamespaceAsync`).
 */
const ru_console: BaseTranslation = {
  title: 'Очередь',
  orderTitle: 'Заказ',
  empty: 'Пусто',
  groups: {
    appeals: 'Апелляции',
    requisites: 'Выдать реквизиты',
    officeInstructions: 'Выдать инструкции офиса',
    receipts: 'Проверить оплату',
    transactions: 'Подтвердить транзакцию',
    payouts: 'Сделать выплату',
    flagged: 'Требуют внимания',
  },
  flags: {
    paidLate: 'Оплачен после срока',
    reusedReceipt: 'Тот же чек на другом заказе',
    waitingTooLong: 'Ждёт оператора больше 10 минут',
  },
  age: 'создан {time:string} назад',
  left: 'осталось {time:string}',
  overdue: 'просрочен на {time:string}',
  customer: 'Клиент',
  orderCount: 'Заказов всего: {count:number}',
  firstSeen: 'Впервые: {date:string}',
  writeTo: 'Написать в Telegram',
  ended: 'Закрыт',
  deadline: 'Срок',
  receipts: 'Чеки',
  events: 'История',
  chat: 'Чат с клиентом',
  chatEmpty: 'Клиент ещё не писал.',
  unread:
    '{count:number}\u00a0{{count:непрочитанных|непрочитанное|непрочитанных|непрочитанных|непрочитанных|непрочитанного}} в\u00a0чате',
  chatMessageEvent: 'Сообщение в чате заказа',
  chainCheck: 'В сети',
  chainManual:
    'Не проверяется в сети: для этой сети не настроен узел. Проверьте транзакцию в обозревателе.',
  chainClosed: 'Проверка в сети завершена: заказ переведён вручную.',
  payoutChecked:
    'Хеш проверяется в сети до завершения заказа. Если проверка его не принимает, а криптовалюта отправлена, укажите причину, чтобы завершить всё равно.',
  overrideReason: 'Причина завершить вопреки проверке в сети',
  confirmTxChecked:
    'Транзакция проверяется в сети, и заказ подтвердится сам. Подтверждайте вручную, только если сеть не читается, и укажите причину: она останется в истории.',
  confirmReason: 'Причина подтвердить вручную',
  payoutUnchecked: 'Завершён без проверки выплаты в сети: см. историю.',
  payoutCard: 'Карта для выплаты',
  incoming: 'Неопознанные поступления',
  incomingToAddress: 'Неопознанные поступления на адрес',
  incomingOrderFooter:
    'Переводы на адрес депозита в сети и монете заказа, пришедшие без хеша и не совпавшие ровно с одним заказом. Привязывайте перевод, только если уверены, что он от этого клиента: сравните его сумму с суммой заказа ({amount:string}).',
  incomingQueueFooter:
    'Найдите продажу, к которой относится перевод (нажмите на него: откроются продажи, ждущие криптовалюту), и привяжите его на странице заказа.',
  incomingSender: 'Отправитель',
  incomingSeen: 'Поступил {date:string}',
  incomingFrom: 'от {sender:string}',
  incomingCandidates:
    'Может относиться к\u00a0{count:number}\u00a0{{count:заказам|заказу|заказам|заказам|заказам|заказам}}',
  incomingNoMatch: 'Не совпал по сумме ни с одним заказом',
  incomingFind: 'Найти',
  attachDeposit: 'Привязать к заказу',
  attachDepositAsk:
    'Привязать этот перевод к заказу №{id:string} как его депозит?\nПеревод: {amount:string} от {sender:string}\nЗаказ: {orderAmount:string}\nЗатем его подтвердит сеть.',
  attachRefused: {
    TX_WRONG_RECIPIENT: 'Этот перевод отправлен не на адрес депозита этого заказа.',
    TX_UNDERPAID:
      'Этот перевод на {amount:string} меньше суммы заказа: он не может быть депозитом этого заказа.',
    TX_BEFORE_ORDER:
      'Этот перевод сделан раньше, чем создан заказ: он не может быть депозитом этого заказа.',
    TX_ALREADY_USED: 'Этот перевод уже стал депозитом другого заказа.',
    TX_UNCONFIRMED: 'Узел сети не ответил: перевод не удалось проверить. Повторите через минуту.',
  },
  actors: {
    customer: 'клиент',
    operator: 'оператор {id:number}',
    system: 'система',
    chain: 'проверка в сети',
    autopilot: 'автопилот демо',
  },
  messages: 'Сообщения бота',
  messagesDemo:
    'Демо-режим: бот ничего не отправляет. Здесь то, что получили бы клиент и операторы.',
  messageTo: {
    customer: 'Клиенту',
    operators: 'Операторам',
  },
  messageStatus: {
    pending: 'ждёт отправки',
    sending: 'отправляется',
    sent: 'отправлено {date:string}',
    summarised: 'вошло в сводку',
    failed: 'не отправлено',
    unreachable: 'клиент заблокировал бота',
    skipped: 'не отправлено',
  },
  messageUnrendered: 'Текст сообщения не удалось составить: причина ниже',
  messageButtons: 'Кнопки: {labels:string}',
  giveCard: 'Выдать реквизиты карты',
  giveBank: 'Выдать банковские реквизиты',
  giveOffice: 'Выдать инструкции',
  office: 'Офис',
  instructions: 'Текст для клиента',
  confirmPayment: 'Подтвердить оплату',
  confirmPaymentAsk:
    'Деньги по заказу №{id:string} ({amount:string}) пришли на счёт? Клиенту уйдёт криптовалюта.',
  confirmTx: 'Подтвердить транзакцию',
  confirmTxAsk: 'Транзакция по заказу №{id:string} ({amount:string}) подтверждена в сети?',
  complete: 'Криптовалюта отправлена',
  completeAsk:
    'Завершить заказ №{id:string}? Вы отправили {amount:string} в сети {network:string} на кошелёк клиента {wallet:string}.',
  completeSell: 'Выплата на карту сделана',
  completeSellAsk: 'Выплата {amount:string} на карту по заказу №{id:string} сделана?',
  completeOffice: 'Криптовалюта выдана',
  completeOfficeAsk: 'Клиент получил криптовалюту по заказу №{id:string}?',
  outgoingTxHash: 'Хеш исходящей транзакции',
  reject: 'Отклонить',
  rejectReason: 'Причина',
  rejectText: 'Комментарий для клиента',
  rejectAsk: 'Отклонить заказ №{id:string}?',
  rates: 'Курсы',
  baseRates: 'Базовые курсы',
  search: 'Поиск',
  searchQuery: 'Номер заказа, Telegram id, @username или имя',
  filterStatus: 'Статус',
  filterType: 'Тип',
  filterMethod: 'Способ',
  filterFrom: 'Создан с',
  filterTo: 'Создан по',
  any: 'Все',
  anyActive: 'Все активные',
  nothingFound: 'Ничего не найдено',
  spreads: 'Спреды',
  save: 'Сохранить',
  notANumber: 'Введите число, например 95.40',
  notAPercent: 'Введите процент от 0 до 20, например 2.5',
  changedBy: 'Изменил оператор {id:number}, {date:string}',
  seeded: 'Начальное значение',
  largeChange:
    'Курс {pair:string} меняется с {from:string} на {to:string} ({change:string}). Это больше 5%: подтвердите ещё раз.',
  yes: 'Да',
  no: 'Нет',
  done: 'Готово: заказ теперь «{status:string}»',
  stale: 'Другой оператор уже изменил заказ: теперь он «{status:string}». Данные обновлены.',
};

export default ru_console;
