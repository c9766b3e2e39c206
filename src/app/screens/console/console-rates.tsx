/**
 * `/console/rates`: the base rate per fiat and coin and the spread per method and direction
 * (issue 11), each editable in place, with who changed it and when. A base rate changed by more
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
import { fetchRates, putRate, putSpread } from '../../api/operator';
import { FieldError } from '../../components/field-error';
import { failureText } from '../../components/failure-text';
import { Loading } from '../../components/loading';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatNumber, localeOf } from '../../../shared/format';
import { useFetchState } from '../../hooks/use-fetch-state';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm, hapticError, hapticSuccess } from '../../telegram/actions';
import { forgetDraft, readDraft, writeDraft } from '../../components/console/console-draft';

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
  const { language } = useLanguage();
  // A value typed but refused (OPERATOR_REOPEN) is there again in the reopened console.
  const [text, setText] = useState(() => readDraft(RATES_DRAFTS, testId)['text'] ?? value);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const parsed = parse(text);
  const when = new Intl.DateTimeFormat(localeOf(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(updatedAt));
  const submit = async () => {
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
  return (
    <div data-testid={testId}>
      <Input
        header={label}
        inputMode="decimal"
        value={text}
        status={error === null ? 'default' : 'error'}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
        after={
          <Button
            size="s"
            mode="bezeled"
            loading={busy}
            disabled={busy || text.trim() === value}
            onClick={() => void submit()}
            data-testid={`${testId}-save`}
          >
            {LL.console.save()}
          </Button>
        }
      />
      {error !== null && <FieldError text={error} testId={`${testId}-error`} />}
      <Cell className="console-changed" multiline>
        {updatedBy === null
          ? LL.console.seeded()
          : LL.console.changedBy({ id: updatedBy, date: when })}
      </Cell>
    </div>
  );
}

function RatesTable({
  rates,
  onSaved,
}: {
  readonly rates: OperatorRatesResponse;
  readonly onSaved: (next: OperatorRatesResponse) => void;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const saved = (next: OperatorRatesResponse) => {
    hapticSuccess();
    onSaved(next);
  };
  return (
    <List>
      <Section header={LL.console.baseRates()}>
        {rates.rates.map((rate) => {
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
      <Section header={LL.console.spreads()}>
        {rates.spreads.map((spread) => (
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
    </List>
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
