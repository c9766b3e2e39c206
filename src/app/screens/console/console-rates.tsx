/**
 * `/console/rates`: the base rate per fiat and coin and the spread per method and direction,
 * each editable in place, with who changed it and when. A base rate changed by more
 * than 5% asks a second time (the server refuses it otherwise); customers' quotes follow at once.
 */
import { Button, Cell, Input, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import type { OperatorRatesResponse } from '../../../shared/operator-api';
import { fromUnits, toUnits } from '../../../shared/money';
import {
  basisPointsFromPercent,
  percentFromBasisPoints,
  rateChangeNeedsConfirmation,
} from '../../../shared/rate-rules';
import { ApiError } from '../../api/client';
import { fetchRates, putRate, putSpread } from '../../features/console/console-api';
import { FieldError } from '../../components/field-error';
import { failureText } from '../../components/failure-text';
import { Loading } from '../../components/loading';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatNumber } from '../../../shared/format';
import { useDateTime } from '../../hooks/use-date-time';
import { useFetchState } from '../../hooks/use-fetch-state';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm, hapticError, hapticSuccess } from '../../telegram/actions';
import { forgetDraft, readDraft, writeDraft } from '../../features/console/console-draft';

/** The drafts of the rates screen, beside those of orders. */
const RATES_DRAFTS = 'rates';

/** The highest spread the server takes, in basis points (SetSpreadSchema). */
const MAX_SPREAD_BP = 2_000;

/** One editable value: shown, typed, checked, saved; with who set it and when. */
function EditableRow({
  label,
  value,
  updatedAt,
  updatedBy,
  parse,
  invalid,
  save,
  testId,
}: {
  readonly label: string;
  readonly value: string;
  readonly updatedAt: string;
  readonly updatedBy: number | null;
  /** The typed text as what is saved; undefined when it is not acceptable. */
  readonly parse: (text: string) => number | undefined;
  readonly invalid: string;
  readonly save: (next: number) => Promise<void>;
  readonly testId: string;
}) {
  const { LL } = useI18nContext();
  const edit = useEditedValue({ value, parse, invalid, save, testId });
  return (
    <div data-testid={testId}>
      <Input
        header={label}
        inputMode="decimal"
        value={edit.text}
        status={edit.error === null ? 'default' : 'error'}
        onChange={(event) => edit.type(event.target.value)}
        after={
          <Button
            size="s"
            mode="bezeled"
            loading={edit.busy}
            disabled={edit.busy || edit.text.trim() === value}
            onClick={() => void edit.submit()}
            data-testid={`${testId}-save`}
          >
            {LL.console.save()}
          </Button>
        }
      />
      {edit.error !== null && <FieldError text={edit.error} testId={`${testId}-error`} />}
      <ChangedBy updatedAt={updatedAt} updatedBy={updatedBy} />
    </div>
  );
}

/**
 * A row's text as typed, checked and saved: a refused value says why under the field, and a
 * value typed but refused for old init data (OPERATOR_REOPEN) is kept as a draft, there again
 * in the reopened console.
 */
function useEditedValue({
  value,
  parse,
  invalid,
  save,
  testId,
}: {
  readonly value: string;
  readonly parse: (text: string) => number | undefined;
  readonly invalid: string;
  readonly save: (next: number) => Promise<void>;
  readonly testId: string;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [text, setText] = useState(() => readDraft(RATES_DRAFTS, testId)['text'] ?? value);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const type = (next: string) => {
    setText(next);
    setError(null);
  };
  const submit = async () => {
    const parsed = parse(text);
    if (parsed === undefined) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await save(parsed);
      forgetDraft(RATES_DRAFTS, testId);
    } catch (failure) {
      hapticError();
      // Kept only when refused for old init data: a draft never stands in for the current rate.
      if (failure instanceof ApiError && failure.code === 'OPERATOR_REOPEN') {
        writeDraft(RATES_DRAFTS, testId, { text });
      }
      setError(failureText(failure, LL, LL.errors.generic(), language));
    } finally {
      setBusy(false);
    }
  };
  return { text, busy, error, type, submit };
}

/** Who set a value and when, or that it is the seeded one. */
function ChangedBy({
  updatedAt,
  updatedBy,
}: {
  readonly updatedAt: string;
  readonly updatedBy: number | null;
}) {
  const { LL } = useI18nContext();
  const date = useDateTime();
  return (
    <Cell className="console-changed" multiline>
      {updatedBy === null
        ? LL.console.seeded()
        : LL.console.changedBy({ id: updatedBy, date: date(updatedAt) })}
    </Cell>
  );
}

function RatesTable({
  rates,
  onSaved,
}: {
  readonly rates: OperatorRatesResponse;
  readonly onSaved: (next: OperatorRatesResponse) => void;
}) {
  const saved = (next: OperatorRatesResponse) => {
    hapticSuccess();
    onSaved(next);
  };
  return (
    <List>
      <BaseRates rates={rates.rates} saved={saved} />
      <Spreads spreads={rates.spreads} saved={saved} />
    </List>
  );
}

/** The base rate per fiat and coin; a change over 5% is asked a second time. */
function BaseRates({
  rates,
  saved,
}: {
  readonly rates: OperatorRatesResponse['rates'];
  readonly saved: (next: OperatorRatesResponse) => void;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  return (
    <Section header={LL.console.baseRates()}>
      {rates.map((rate) => {
        const pair = `${rate.fiat}/${rate.crypto}`;
        return (
          <EditableRow
            key={`${pair}-${rate.updatedAt}`}
            label={pair}
            value={String(rate.baseRate)}
            updatedAt={rate.updatedAt}
            updatedBy={rate.updatedBy}
            parse={(text) => {
              const units = toUnits(text.trim().replace(',', '.'));
              return units === undefined || units === 0 ? undefined : fromUnits(units);
            }}
            invalid={LL.console.notANumber()}
            testId={`rate-${rate.fiat}-${rate.crypto}`}
            save={async (baseRate) => {
              const large = rateChangeNeedsConfirmation(rate.baseRate, baseRate);
              if (large) {
                const change = ((baseRate - rate.baseRate) / rate.baseRate) * 100;
                const ok = await askConfirm(
                  LL.console.largeChange({
                    pair,
                    from: formatNumber(rate.baseRate, language, 6),
                    to: formatNumber(baseRate, language, 6),
                    change: `${change > 0 ? '+' : ''}${formatNumber(change, language, 1)}%`,
                  }),
                  { ok: LL.console.yes(), cancel: LL.console.no() },
                  inTelegram,
                );
                if (!ok) return;
              }
              saved(
                await putRate({
                  fiat: rate.fiat,
                  crypto: rate.crypto,
                  baseRate,
                  confirmLargeChange: large,
                }),
              );
            }}
          />
        );
      })}
    </Section>
  );
}

/** The spread per method and direction, in percent, at most MAX_SPREAD_BP. */
function Spreads({
  spreads,
  saved,
}: {
  readonly spreads: OperatorRatesResponse['spreads'];
  readonly saved: (next: OperatorRatesResponse) => void;
}) {
  const { LL } = useI18nContext();
  return (
    <Section header={LL.console.spreads()}>
      {spreads.map((spread) => (
        <EditableRow
          key={`${spread.paymentMethod}-${spread.operation}-${spread.updatedAt}`}
          label={`${LL.paymentMethods[spread.paymentMethod]()} · ${spread.operation === 'BUY' ? LL.myOrders.buy() : LL.myOrders.sell()}, %`}
          value={percentFromBasisPoints(spread.spreadBp)}
          updatedAt={spread.updatedAt}
          updatedBy={spread.updatedBy}
          parse={(text) => {
            const bp = basisPointsFromPercent(text);
            return bp === undefined || bp > MAX_SPREAD_BP ? undefined : bp;
          }}
          invalid={LL.console.notAPercent()}
          testId={`spread-${spread.paymentMethod}-${spread.operation}`}
          save={async (spreadBp) =>
            saved(
              await putSpread({
                paymentMethod: spread.paymentMethod,
                operation: spread.operation,
                spreadBp,
              }),
            )
          }
        />
      ))}
    </Section>
  );
}

export function ConsoleRates() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const fetched = useFetchState('rates', (signal) => fetchRates(signal));
  const [latest, setLatest] = useState<OperatorRatesResponse>();
  const rates = latest ?? fetched.data;

  let body;
  if (rates === undefined && fetched.error !== undefined) {
    body = <Placeholder header={failureText(fetched.error, LL, LL.errors.generic(), language)} />;
  } else if (rates === undefined) {
    body = <Loading />;
  } else {
    body = <RatesTable rates={rates} onSaved={setLatest} />;
  }
  return (
    <Screen testId="console-rates" header={{ title: LL.console.rates(), back: '/console' }}>
      {body}
    </Screen>
  );
}
