/** An operator acting through the operator API, as staff do while a customer waits. */
import type { FastifyInstance } from 'fastify';
import type { RejectReason } from '../../src/shared/reject-reasons';
import { authHeader, initDataFor } from './identity';

export const OPERATOR = { id: 300_000_001, first_name: 'Оператор', username: 'desk_operator' };

export class OperatorClient {
  constructor(private readonly app: FastifyInstance) {}

  private async post(url: string, payload: unknown = {}): Promise<unknown> {
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers: authHeader(initDataFor(OPERATOR)),
      payload: payload as Record<string, unknown>,
    });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    return res.json();
  }

  giveCard(
    orderId: string,
    card = {
      bankName: 'Т-Банк',
      cardNumber: '2200700123456781',
      cardHolder: 'IVAN PETROV',
      comment: 'Без комментария к переводу',
    },
  ) {
    return this.post(`/api/operator/orders/${orderId}/requisites`, card);
  }

  giveBankRequisites(orderId: string) {
    return this.post(`/api/operator/orders/${orderId}/requisites`, {
      recipientName: 'ООО «Криптообмен»',
      accountNumber: '40702810938000123456',
      bankName: 'ПАО Сбербанк',
      bik: '044525225',
      correspondentAccount: '30101810400000000225',
      inn: '7707083893',
      bankAddress: 'Москва, ул. Вавилова, 19',
    });
  }

  giveOfficeInstructions(orderId: string, instructions: string) {
    return this.post(`/api/operator/orders/${orderId}/office-instructions`, { instructions });
  }

  confirmPayment(orderId: string) {
    return this.post(`/api/operator/orders/${orderId}/confirm-payment`);
  }

  confirmTx(orderId: string) {
    return this.post(`/api/operator/orders/${orderId}/confirm-tx`);
  }

  complete(orderId: string, outgoingTxHash?: string) {
    return this.post(
      `/api/operator/orders/${orderId}/complete`,
      outgoingTxHash === undefined ? {} : { outgoingTxHash },
    );
  }

  /** Rejects with free text alone (the catalogue's `other`), or a catalogue reason and text. */
  reject(orderId: string, reason: string | undefined, reasonCode?: RejectReason) {
    return this.post(`/api/operator/orders/${orderId}/reject`, { reason, reasonCode });
  }
}
