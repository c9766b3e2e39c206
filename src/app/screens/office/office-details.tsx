/**
 * `/office-details`: the office reservation, from navigation state; without it
 * the screen returns to /. The code with copy, the countdown (warning under 10 minutes), the
 * address, hours, phone and map link, the passport note and 'I received money'.
 */
import { Cell, List, Section } from '@telegram-apps/telegram-ui';
import { Redirect } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import type { OfficeReservation } from '../../../shared/api';
import { OFFICE_RESERVATION_WARNING_MS } from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-screens';
import { CopyRow } from '../../components/copy-row';
import { CountdownBanner } from '../../features/order/countdown-banner';
import { Screen } from '../../components/screen';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useOfficeConfirm } from '../../features/order/use-office-confirm';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { PrimaryAction } from '../../components/primary-action';

interface OfficeDetailsState {
  readonly reservation: OfficeReservation;
  readonly orderId: string;
}

export function OfficeDetails() {
  const state = useHistoryState<OfficeDetailsState | null>();
  if (state?.reservation === undefined) return <Redirect to="/" replace />;
  return <Reservation reservation={state.reservation} orderId={state.orderId} />;
}

function Reservation({ reservation, orderId }: OfficeDetailsState) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  // The server's text is never shown: its code is, translated, under the generic headline.
  const confirm = useOfficeConfirm(orderId, 'generic');
  const countdown = useCountdown(reservation.reservedUntil, 0);
  const warning =
    countdown.remainingMs !== undefined && countdown.remainingMs < OFFICE_RESERVATION_WARNING_MS;
  const { office, city } = reservation;

  return (
    <Screen
      testId="office-details"
      header={{ title: LL.officeDetails.title(), back: orderScreenPath(orderId, 'office-waiting') }}
    >
      <CountdownBanner
        text={LL.officeDetails.reservedFor({
          time: formatDuration(countdown.remainingMs ?? 0, true),
        })}
        warning={warning ? LL.officeDetails.reservationWarning() : null}
      />
      <List>
        <Section>
          <CopyRow
            label={LL.officeDetails.reservationCode()}
            value={reservation.reservationCode}
            testId="reservation-code"
          />
        </Section>
        <Section>
          <Cell subhead={LL.officeDetails.city()}>
            {language === 'ru' ? city.nameRu : city.nameEn}
          </Cell>
          <Cell subhead={LL.officeDetails.officeAddress()} multiline data-testid="office-address">
            {language === 'ru' ? office.addressRu : office.addressEn}
          </Cell>
          <Cell subhead={LL.officeDetails.workingHours()} multiline>
            {language === 'ru' ? office.workingHoursRu : office.workingHoursEn}
          </Cell>
          <Cell
            className="cell-link"
            subhead={LL.officeDetails.phone()}
            Component="a"
            href={`tel:${office.phone.replace(/[^\d+]/g, '')}`}
          >
            {office.phone}
          </Cell>
          <Cell
            className="cell-link"
            Component="a"
            href={office.mapLink}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="map-link"
          >
            {LL.officeDetails.openMap()}
          </Cell>
        </Section>
      </List>
      <div className="warning-box" role="note">
        {LL.officeDetails.passportRequired()}
      </div>
      <div className="screen__actions">
        <PrimaryAction
          text={LL.officeDetails.iReceivedMoney()}
          loading={confirm.busy}
          onClick={() => void confirm.run()}
          testId="i-received-money"
        />
      </div>
    </Screen>
  );
}
