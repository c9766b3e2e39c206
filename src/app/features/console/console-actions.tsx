/**
 * What an operator can do with an order in its status, each a form on the valibot
 * schemas of src/shared/schemas/operator.ts: card or bank requisites (bank prefilled from the
 * default account), office instructions, confirming a payment or a transaction, completing (the
 * outgoing hash checked for the order's network), attaching an unmatched deposit to a sell
 * waiting for its crypto, rejecting with a catalogue reason. Where money moves, the operator is
 * asked first.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Input, List, Section, Select, Textarea } from '@telegram-apps/telegram-ui';
import type { ReactNode } from 'react';
import {
  useForm,
  useWatch,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import * as v from 'valibot';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { OperatorOrderResponse } from '../../../shared/operator-api';
import { NETWORKS } from '../../../shared/networks';
import { ACTIVE_STATUSES, type OrderStatus } from '../../../shared/order-status';
import { REJECT_REASONS, type RejectReason } from '../../../shared/reject-reasons';
import { appealDecisions } from '../../../shared/appeals';
import { AppealDecisionSchema } from '../../../shared/schemas/appeals';
import { txHashSchema } from '../../../shared/schemas/forms';
import {
  BankRequisitesSchema,
  CardRequisitesSchema,
  CompleteSchema,
  ConfirmTxFields,
  OfficeInstructionsSchema,
  RejectSchema,
} from '../../../shared/schemas/operator';
import type { FormErrorKey } from '../../../shared/schemas/form-errors';
import { orderNumber } from '../../../shared/support-link';
import { FieldError } from '../../components/field-error';
import { ScreenActionButton } from '../../components/screen-action-button';
import { formErrorText } from '../../components/form-error-text';
import { formatCrypto, formatFiat } from '../../../shared/format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import type { ConsoleAction, ConsoleOrderProps } from './use-console-action';
import { readDraft, useFormDraft } from './console-draft';
import { OrderIncomingDeposits } from './console-incoming';

type Fields = Record<string, string>;

const FILL_ALL_FIELDS: FormErrorKey = 'fillAllFields';

/**
 * A schema of src/shared/schemas/operator.ts for a form whose fields are all text: optional
 * fields left empty are left out before it judges them (an empty beneficiary is no beneficiary).
 */
function textForm<S extends v.GenericSchema>(schema: S) {
  return valibotResolver(
    v.pipe(
      v.record(v.string(), v.string()),
      // What is left is the schema's to judge, whatever it holds.
      v.transform((fields: Fields): unknown => withoutEmpty(fields)),
      schema,
    ),
  );
}

/** A text field of a console form, with its translated error. */
function Field<T extends FieldValues>({
  form,
  name,
  label,
  multiline = false,
  missing,
}: {
  readonly form: UseFormReturn<T>;
  readonly name: Path<T>;
  readonly label: string;
  readonly multiline?: boolean;
  /** What a required field left empty says, when "fill in all fields" would not. */
  readonly missing?: string;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const message = form.formState.errors[name]?.message;
  const key = typeof message === 'string' ? message : undefined;
  const error =
    message === undefined
      ? null
      : key === FILL_ALL_FIELDS && missing !== undefined
        ? missing
        : (formErrorText(key, LL, { language }) ?? LL.errors.fillAllFields());
  const field = form.register(name);
  return (
    <>
      {multiline ? (
        <Textarea
          header={label}
          aria-label={label}
          status={error === null ? 'default' : 'error'}
          {...field}
        />
      ) : (
        <Input
          header={label}
          aria-label={label}
          autoComplete="off"
          status={error === null ? 'default' : 'error'}
          {...field}
        />
      )}
      {error !== null && <FieldError text={error} testId={`error-${name}`} />}
    </>
  );
}

function withoutEmpty(values: Fields): Fields {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''));
}

function SubmitButton({
  text,
  busy,
  testId,
  mode,
}: {
  text: string;
  busy: boolean;
  testId: string;
  /** Rejecting, the one action that sends nothing on, is the quieter bezeled button. */
  mode?: 'bezeled';
}) {
  return (
    <ScreenActionButton type="submit" mode={mode} loading={busy} disabled={busy} testId={testId}>
      {text}
    </ScreenActionButton>
  );
}

function CardForm({ action }: { readonly action: ConsoleAction }) {
  const { LL } = useI18nContext();
  const form = useForm<Fields, unknown, v.InferOutput<typeof CardRequisitesSchema>>({
    resolver: textForm(CardRequisitesSchema),
    defaultValues: {
      bankName: '',
      cardNumber: '',
      cardHolder: '',
      phone: '',
      comment: '',
      ...readDraft(action.orderId, 'card'),
    },
  });
  useFormDraft(action.orderId, 'card', form);
  const submit = form.handleSubmit((values) => action.run('requisites', values));
  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="card-form">
      <List>
        <Section header={LL.console.giveCard()}>
          <Field form={form} name="cardNumber" label={LL.payment.cardNumber()} />
          <Field form={form} name="bankName" label={LL.payment.bank()} />
          <Field form={form} name="cardHolder" label={LL.payment.cardHolder()} />
          <Field form={form} name="phone" label={LL.payment.phone()} />
          <Field form={form} name="comment" label={LL.payment.comment()} multiline />
        </Section>
      </List>
      <SubmitButton text={LL.console.giveCard()} busy={action.busy} testId="give-card" />
    </form>
  );
}

const BANK_FIELDS = [
  'recipientName',
  'accountNumber',
  'bankName',
  'bik',
  'correspondentAccount',
  'inn',
  'bankAddress',
  'beneficiaryName',
  'beneficiaryAccount',
] as const;

function BankForm({
  action,
  prefill,
}: {
  readonly action: ConsoleAction;
  readonly prefill: OperatorOrderResponse['defaultBankAccount'];
}) {
  const { LL } = useI18nContext();
  const form = useForm<Fields, unknown, v.InferOutput<typeof BankRequisitesSchema>>({
    resolver: textForm(BankRequisitesSchema),
    defaultValues: {
      ...Object.fromEntries(BANK_FIELDS.map((f) => [f, prefill?.[f] ?? ''])),
      ...readDraft(action.orderId, 'bank'),
    },
  });
  useFormDraft(action.orderId, 'bank', form);
  const submit = form.handleSubmit((values) => action.run('requisites', values));
  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="bank-form">
      <List>
        <Section header={LL.console.giveBank()}>
          {BANK_FIELDS.map((name) => (
            <Field key={name} form={form} name={name} label={LL.bankRequisites[name]()} />
          ))}
        </Section>
      </List>
      <SubmitButton text={LL.console.giveBank()} busy={action.busy} testId="give-bank" />
    </form>
  );
}

function OfficeForm({
  action,
  offices,
}: {
  readonly action: ConsoleAction;
  readonly offices: OperatorOrderResponse['offices'];
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const form = useForm<Fields, unknown, v.InferOutput<typeof OfficeInstructionsSchema>>({
    resolver: textForm(OfficeInstructionsSchema),
    defaultValues: {
      officeId: offices[0]?.id ?? '',
      instructions: '',
      ...readDraft(action.orderId, 'office'),
    },
  });
  useFormDraft(action.orderId, 'office', form);
  const submit = form.handleSubmit((values) => action.run('officeInstructions', values));
  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="office-form">
      <List>
        <Section header={LL.console.giveOffice()}>
          <Select
            header={LL.console.office()}
            aria-label={LL.console.office()}
            {...form.register('officeId')}
          >
            {offices.map((office) => (
              <option key={office.id} value={office.id}>
                {language === 'ru' ? office.addressRu : office.addressEn}
              </option>
            ))}
          </Select>
          <Field form={form} name="instructions" label={LL.console.instructions()} multiline />
        </Section>
      </List>
      <SubmitButton text={LL.console.giveOffice()} busy={action.busy} testId="give-office" />
    </form>
  );
}

/**
 * The outgoing hash, and the reason to complete anyway when the chain check refuses it (or cannot
 * read it yet): left empty, the server checks the hash and refuses a wrong one with what is
 * wrong; filled, the server completes and keeps the reason with the problem it overrode. A
 * network without a node is not checked: the form says so and asks no reason.
 */
function CompleteWithHashForm({ action, view }: ConsoleOrderProps) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { network } = view.order;
  const draft = readDraft(action.orderId, 'complete');
  const schema = v.object({
    ...txHashSchema(network).entries,
    overrideReason: CompleteSchema.entries.overrideReason,
  });
  const form = useForm<Fields, unknown, v.InferOutput<typeof schema>>({
    // Only an empty reason is left out (no override); an empty hash is the hash field's error.
    resolver: valibotResolver(
      v.pipe(
        v.record(v.string(), v.string()),
        v.transform(({ overrideReason, ...rest }: Fields): unknown =>
          overrideReason === undefined || overrideReason.trim() === ''
            ? rest
            : { ...rest, overrideReason },
        ),
        schema,
      ),
    ),
    defaultValues: { txHash: draft['txHash'] ?? '', overrideReason: '' },
  });
  useFormDraft(action.orderId, 'complete', form);
  const error = formErrorText(form.formState.errors.txHash?.message, LL, {
    language,
    network: NETWORKS[network].name,
  });
  const txHashLabel = `${LL.console.outgoingTxHash()} · ${NETWORKS[network].name}`;
  // The last money action, asked first like the others: what was sent, on which network, to whom.
  const ask = LL.console.completeAsk({
    id: orderNumber(view.order.id),
    amount: formatCrypto(view.order.amount, view.order.cryptoCurrency, language),
    network: NETWORKS[network].name,
    wallet: view.order.walletAddress ?? '',
  });
  const submit = form.handleSubmit(({ txHash, overrideReason }) =>
    action.run(
      'complete',
      overrideReason === undefined
        ? { outgoingTxHash: txHash }
        : { outgoingTxHash: txHash, overrideReason },
      ask,
    ),
  );
  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="complete-form">
      <List>
        <Section
          header={LL.console.complete()}
          footer={view.chainChecked ? LL.console.payoutChecked() : LL.console.chainManual()}
        >
          <Input
            header={txHashLabel}
            aria-label={txHashLabel}
            autoComplete="off"
            spellCheck={false}
            status={error === null ? 'default' : 'error'}
            {...form.register('txHash')}
          />
          {error !== null && <FieldError text={error} testId="error-txHash" />}
          {view.chainChecked && (
            <Field
              form={form}
              name="overrideReason"
              label={LL.console.overrideReason()}
              multiline
            />
          )}
        </Section>
      </List>
      <SubmitButton text={LL.console.complete()} busy={action.busy} testId="complete" />
    </form>
  );
}

/**
 * Confirming a seller's transaction by hand on a network read from a node: the chain checker
 * confirms it itself, so the operator says why (the server refuses without a reason,
 * CONFIRM_REASON_REQUIRED, and keeps it in the audit trail). Asked first like every money action.
 */
function ConfirmTxWithReasonForm({
  action,
  ask,
}: {
  readonly action: ConsoleAction;
  readonly ask: string;
}) {
  const { LL } = useI18nContext();
  // Required here: the same reason rule as a payout's override, without its being optional.
  const schema = v.object({ reason: v.unwrap(ConfirmTxFields.entries.reason) });
  const form = useForm<{ reason: string }, unknown, v.InferOutput<typeof schema>>({
    resolver: valibotResolver(schema),
    defaultValues: { reason: readDraft(action.orderId, 'confirmTx')['reason'] ?? '' },
  });
  useFormDraft(action.orderId, 'confirmTx', form);
  const submit = form.handleSubmit(({ reason }) => action.run('confirmTx', { reason }, ask));
  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="confirm-tx-form">
      <List>
        <Section header={LL.console.confirmTx()} footer={LL.console.confirmTxChecked()}>
          <Field
            form={form}
            name="reason"
            label={LL.console.confirmReason()}
            multiline
            missing={LL.apiErrors.CONFIRM_REASON_REQUIRED()}
          />
        </Section>
      </List>
      <SubmitButton text={LL.console.confirmTx()} busy={action.busy} testId="confirm-tx" />
    </form>
  );
}

function RejectForm({ action, id }: { readonly action: ConsoleAction; readonly id: string }) {
  const { LL } = useI18nContext();
  const form = useForm<Fields, unknown, v.InferOutput<typeof RejectSchema>>({
    resolver: textForm(RejectSchema),
    defaultValues: {
      reasonCode: 'payment_not_received',
      reason: '',
      ...readDraft(action.orderId, 'reject'),
    },
  });
  useFormDraft(action.orderId, 'reject', form);
  const submit = form.handleSubmit((values) =>
    action.run('reject', values, LL.console.rejectAsk({ id: orderNumber(id) })),
  );
  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="reject-form">
      <List>
        <Section header={LL.console.reject()}>
          <Select
            header={LL.console.rejectReason()}
            aria-label={LL.console.rejectReason()}
            {...form.register('reasonCode')}
          >
            {REJECT_REASONS.map((code: RejectReason) => (
              <option key={code} value={code}>
                {LL.rejectReasons[code]()}
              </option>
            ))}
          </Select>
          <Field form={form} name="reason" label={LL.console.rejectText()} multiline />
        </Section>
      </List>
      <SubmitButton text={LL.console.reject()} busy={action.busy} testId="reject" mode="bezeled" />
    </form>
  );
}

/**
 * A senior operator's decision of the order's open appeal (only theirs: the server refuses
 * anyone else with SENIOR_ONLY): the decisions its status leaves, the text the customer reads,
 * and what the decision needs (a buy's payout hash to complete it; a refund's requisites or
 * reference for a buy, its hash for a sell). Asked first: it moves money.
 */
function AppealDecisionForm({ action, view }: ConsoleOrderProps) {
  const { LL } = useI18nContext();
  const { order } = view;
  const decisions = appealDecisions(order.status);
  const form = useForm<Fields, unknown, v.InferOutput<typeof AppealDecisionSchema>>({
    resolver: textForm(AppealDecisionSchema),
    defaultValues: { decision: decisions[0] ?? 'uphold', outcome: '' },
  });
  const decision = useWatch({ control: form.control, name: 'decision' });
  const submit = form.handleSubmit((values) =>
    action.run('appealDecision', values, LL.console.appealDecideAsk({ id: orderNumber(order.id) })),
  );
  const needs =
    decision === 'complete' && order.type === 'BUY'
      ? (['outgoingTxHash', LL.console.outgoingTxHash()] as const)
      : decision === 'refund'
        ? order.type === 'BUY'
          ? (['refundDetails', LL.console.appealRefundDetails()] as const)
          : (['refundTxHash', LL.console.appealRefundTxHash()] as const)
        : null;
  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="appeal-decision-form">
      <List>
        <Section header={LL.console.appealDecide()}>
          <Select
            header={LL.console.appealDecision()}
            aria-label={LL.console.appealDecision()}
            {...form.register('decision')}
          >
            {decisions.map((d) => (
              <option key={d} value={d}>
                {LL.console.appealDecisions[d]()}
              </option>
            ))}
          </Select>
          {needs !== null && <Field key={needs[0]} form={form} name={needs[0]} label={needs[1]} />}
          <Field form={form} name="outcome" label={LL.console.appealOutcome()} multiline />
        </Section>
      </List>
      <SubmitButton text={LL.console.appealDecide()} busy={action.busy} testId="appeal-decide" />
    </form>
  );
}

/** A one-tap action, asked first. */
function AskedAction({
  text,
  ask,
  run,
  busy,
  testId,
}: {
  readonly text: string;
  readonly ask: string;
  readonly run: (confirm: string) => Promise<void>;
  readonly busy: boolean;
  readonly testId: string;
}) {
  return (
    <ScreenActionButton
      loading={busy}
      disabled={busy}
      onClick={() => void run(ask)}
      testId={testId}
    >
      {text}
    </ScreenActionButton>
  );
}

/** What a status's main action is made from. */
interface ActionContext extends ConsoleOrderProps {
  readonly LL: TranslationFunctions;
  /** The order's number, and its fiat and crypto amounts, as the questions name them. */
  readonly id: string;
  readonly fiat: string;
  readonly crypto: string;
}

const confirmPayment = ({ action, LL, id, fiat }: ActionContext) => (
  <AskedAction
    text={LL.console.confirmPayment()}
    ask={LL.console.confirmPaymentAsk({ id, amount: fiat })}
    run={(ask) => action.run('confirmPayment', {}, ask)}
    busy={action.busy}
    testId="confirm-payment"
  />
);

/** The main action of each status that has one; every active status also has reject. */
const MAIN_ACTION: Partial<Record<OrderStatus, (context: ActionContext) => ReactNode>> = {
  WAITING_REQUISITES: ({ view, action }) =>
    view.order.paymentMethod === 'BANK_ACCOUNT' ? (
      <BankForm action={action} prefill={view.defaultBankAccount} />
    ) : (
      <CardForm action={action} />
    ),
  OFFICE_PENDING: ({ view, action }) => <OfficeForm action={action} offices={view.offices} />,
  PAYMENT_PENDING: confirmPayment,
  PAYMENT_STARTED: confirmPayment,
  RECEIPT_UPLOADED: confirmPayment,
  TX_PENDING: ({ view, action, LL, id, crypto }) =>
    view.chainChecked ? (
      <ConfirmTxWithReasonForm
        action={action}
        ask={LL.console.confirmTxAsk({ id, amount: crypto })}
      />
    ) : (
      <AskedAction
        text={LL.console.confirmTx()}
        ask={LL.console.confirmTxAsk({ id, amount: crypto })}
        run={(ask) => action.run('confirmTx', {}, ask)}
        busy={action.busy}
        testId="confirm-tx"
      />
    ),
  PAYMENT_CONFIRMED: ({ view, action }) => <CompleteWithHashForm action={action} view={view} />,
  TX_CONFIRMED: ({ action, LL, id, fiat }) => (
    <AskedAction
      text={LL.console.completeSell()}
      ask={LL.console.completeSellAsk({ id, amount: fiat })}
      run={(ask) => action.run('complete', {}, ask)}
      busy={action.busy}
      testId="complete"
    />
  ),
  // Its deposit may have come without a hash: the transfers that could be it, to attach one.
  WAITING_CRYPTO: ({ view, action }) => <OrderIncomingDeposits view={view} action={action} />,
  OFFICE_READY: ({ action, LL, id }) => (
    <AskedAction
      text={LL.console.completeOffice()}
      ask={LL.console.completeOfficeAsk({ id })}
      run={(ask) => action.run('complete', {}, ask)}
      busy={action.busy}
      testId="complete"
    />
  ),
};

/** The actions of the order's status, most likely first; reject on every active order. */
export function ConsoleActions({
  view,
  action,
  senior,
}: ConsoleOrderProps & {
  /** Whether the operator decides appeals (the appeal's answer says). */
  readonly senior: boolean;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { order } = view;
  // Under an open appeal only its decision ends the order: the ordinary actions are refused,
  // and the decision is a senior operator's alone.
  if (order.appeal?.state === 'open') {
    if (!senior) return null;
    return (
      <div data-testid="console-actions">
        <AppealDecisionForm view={view} action={action} />
      </div>
    );
  }
  if (!ACTIVE_STATUSES.includes(order.status)) return null;
  const main =
    MAIN_ACTION[order.status]?.({
      view,
      action,
      LL,
      id: orderNumber(order.id),
      fiat: formatFiat(order.totalRub, order.currency, language),
      crypto: formatCrypto(order.amount, order.cryptoCurrency, language),
    }) ?? null;
  return (
    <div data-testid="console-actions">
      {main}
      <RejectForm action={action} id={order.id} />
    </div>
  );
}
